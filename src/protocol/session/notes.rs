//! Session text both games' sessions share: notes on option values (each session wraps them
//! in its own message form, `info string` or `MESSAGE`), made on the engine thread.

use crate::engine::smp::{MAX_THREADS_PER_CORE, hardware_threads, searching_threads};

/// The note for a search thread count above what the machine runs at once (`None` when it
/// is not): `setting` names the option as the user wrote it (`Threads 8`).
pub(crate) fn threads_note(setting: &str, threads: usize) -> Option<String> {
    let cores = hardware_threads();
    let running = searching_threads(threads, cores);
    if threads <= cores {
        return None;
    }
    Some(if running < threads {
        format!(
            "{setting}: more than the {cores} threads this machine runs at once; {running} of \
             them search (at most {MAX_THREADS_PER_CORE} a core, so that each move still comes \
             in time)"
        )
    } else {
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
        let capped = cores * MAX_THREADS_PER_CORE + 1;
        let note = threads_note("Threads", capped).unwrap_or_default();
        let running = format!("; {} of them search", cores * MAX_THREADS_PER_CORE);
        assert!(note.contains(&running), "{note}");
    }
}
