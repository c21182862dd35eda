//! Notes shared by the protocols' option handling (each protocol wraps them in its own
//! message form: `info string` or `MESSAGE`).

use crate::engine::smp::hardware_threads;

/// The note for a search thread count above what the machine runs at once (`None` when it
/// is not): `setting` names the option as the user wrote it (`Threads 8`).
pub(crate) fn threads_note(setting: &str, threads: usize) -> Option<String> {
    let cores = hardware_threads();
    (threads > cores).then(|| {
        format!(
            "{setting}: more than the {cores} threads this machine runs at once; the extra \
             threads share the cores (each move still comes in time, the search is no faster)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_more_threads_than_cores_get_a_note() {
        let cores = hardware_threads();
        assert_eq!(threads_note("Threads 1", 1.min(cores)), None);
        assert_eq!(threads_note("Threads", cores), None);
        let note = threads_note("Threads 999", cores + 1).unwrap_or_default();
        assert!(note.starts_with("Threads 999: more than the "), "{note}");
    }
}
