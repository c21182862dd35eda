//! Match statistics: Elo from a score with its 95% confidence interval, and the generalized
//! sequential probability ratio test (GSPRT) in the trinomial (win/draw/loss per game) and the
//! pentanomial (score per pair of games on one opening with colours swapped) models.
//!
//! Elo here is logistic Elo: an expected score `s` means `-400 log10(1/s - 1)` Elo.
//! The GSPRT log-likelihood ratio is the exact one of the multinomial model: the maximum
//! likelihood distributions whose expected score equals the score at `elo0` and at `elo1`
//! (found by solving the one-dimensional Lagrange condition), as fishtest computes it.

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Substitute for an outcome that has not occurred yet, so that the maximum likelihood
/// distributions keep every outcome possible (fishtest regularizes the same way).
const EMPTY_OUTCOME_WEIGHT: f64 = 1e-3;

/// Logistic Elo difference for an expected score in `0..=1`; infinite at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score for a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Game results from one engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Trinomial {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points scored (a win 1, a draw 1/2).
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Per-game score values and their counts, for the generic estimators.
    fn outcomes(&self) -> ([f64; 3], [f64; 3]) {
        (
            [0.0, 0.5, 1.0],
            [self.losses as f64, self.draws as f64, self.wins as f64],
        )
    }
}

/// Counts of game pairs (one opening, colours swapped) by the points the engine scored in
/// the pair: index 0 = 0 points, 1 = 1/2, 2 = 1, 3 = 3/2, 4 = 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pair counts by half-points scored.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Records a finished pair in which the engine scored `half_points` half points (0..=4).
    pub fn add_pair(&mut self, half_points: usize) {
        if let Some(slot) = self.counts.get_mut(half_points) {
            *slot += 1;
        }
    }

    /// Pairs recorded.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Per-pair score values (points / 2) and their counts.
    fn outcomes(&self) -> ([f64; 5], [f64; 5]) {
        (
            [0.0, 0.25, 0.5, 0.75, 1.0],
            self.counts.map(|count| count as f64),
        )
    }
}

/// An Elo estimate with its 95% confidence interval (bounds may be infinite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Elo of the mean score.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub lower: f64,
    /// Upper end of the 95% interval.
    pub upper: f64,
}

impl EloEstimate {
    /// Half the width of the interval (the usual `+-` figure), infinite when a bound is.
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// Mean and (population) variance of a discrete sample given as values with counts.
fn mean_and_variance(values: &[f64], counts: &[f64]) -> Option<(f64, f64, f64)> {
    let total: f64 = counts.iter().sum();
    if total <= 0.0 {
        return None;
    }
    let mean = values.iter().zip(counts).map(|(v, c)| v * c).sum::<f64>() / total;
    let variance = values
        .iter()
        .zip(counts)
        .map(|(v, c)| c * (v - mean) * (v - mean))
        .sum::<f64>()
        / total;
    Some((total, mean, variance))
}

/// The Elo of the mean score with its normal-approximation interval. A sample whose results
/// are all the same (say one drawn pair) has no spread to measure: its bounds are NaN, which
/// the report prints as "n/a" rather than a zero-width interval.
fn estimate(values: &[f64], counts: &[f64]) -> Option<EloEstimate> {
    let (total, mean, variance) = mean_and_variance(values, counts)?;
    if variance == 0.0 && mean > 0.0 && mean < 1.0 {
        return Some(EloEstimate {
            elo: elo_from_score(mean),
            lower: f64::NAN,
            upper: f64::NAN,
        });
    }
    let standard_error = (variance / total).sqrt();
    Some(EloEstimate {
        elo: elo_from_score(mean),
        lower: elo_from_score(mean - Z_95 * standard_error),
        upper: elo_from_score(mean + Z_95 * standard_error),
    })
}

/// Elo and 95% interval from game results, each game an independent sample.
pub fn elo_trinomial(results: &Trinomial) -> Option<EloEstimate> {
    let (values, counts) = results.outcomes();
    estimate(&values, &counts)
}

/// Elo and 95% interval from paired results, each pair an independent sample.
pub fn elo_pentanomial(pairs: &Pentanomial) -> Option<EloEstimate> {
    let (values, counts) = pairs.outcomes();
    estimate(&values, &counts)
}

/// The maximum-likelihood distribution over `values` with expected value `target`, given
/// the observed frequencies `observed` (all positive, summing to 1). The solution has the
/// form `p_i = observed_i / (1 + theta (values_i - target))`; `theta` is the root of the
/// strictly decreasing `sum observed_i (values_i - target) / (1 + theta (values_i - target))`,
/// found by bisection. `None` when `target` is outside the values' range.
fn constrained_mle(values: &[f64], observed: &[f64], target: f64) -> Option<Vec<f64>> {
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(min < target && target < max) {
        return None;
    }
    let slope = |theta: f64| -> f64 {
        values
            .iter()
            .zip(observed)
            .map(|(v, p)| p * (v - target) / (1.0 + theta * (v - target)))
            .sum()
    };
    // Every denominator stays positive strictly inside these bounds.
    let mut low = -1.0 / (max - target);
    let mut high = 1.0 / (target - min);
    for _ in 0..200 {
        let middle = (low + high) / 2.0;
        if middle <= low || middle >= high {
            break;
        }
        if slope(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let theta = (low + high) / 2.0;
    Some(
        values
            .iter()
            .zip(observed)
            .map(|(v, p)| p / (1.0 + theta * (v - target)))
            .collect(),
    )
}

/// Generalized log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) for samples with the
/// given values and counts.
fn log_likelihood_ratio(values: &[f64], counts: &[f64], elo0: f64, elo1: f64) -> f64 {
    let total: f64 = counts.iter().sum();
    if total <= 0.0 {
        return 0.0;
    }
    let regularized: Vec<f64> = counts
        .iter()
        .map(|&c| if c > 0.0 { c } else { EMPTY_OUTCOME_WEIGHT })
        .collect();
    let regularized_total: f64 = regularized.iter().sum();
    let observed: Vec<f64> = regularized.iter().map(|c| c / regularized_total).collect();
    let (Some(p0), Some(p1)) = (
        constrained_mle(values, &observed, score_from_elo(elo0)),
        constrained_mle(values, &observed, score_from_elo(elo1)),
    ) else {
        return 0.0;
    };
    total
        * observed
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(p, (a, b))| p * (b.ln() - a.ln()))
            .sum::<f64>()
}

/// Parameters of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtParams {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative hypothesis.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Not decided: keep playing.
    Continue,
    /// The LLR fell to the lower bound: H0 (`elo0`) accepted.
    AcceptH0,
    /// The LLR reached the upper bound: H1 (`elo1`) accepted.
    AcceptH1,
}

impl SprtParams {
    /// `(lower, upper)` LLR bounds: `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// LLR of the pentanomial model.
    pub fn llr_pentanomial(&self, pairs: &Pentanomial) -> f64 {
        let (values, counts) = pairs.outcomes();
        log_likelihood_ratio(&values, &counts, self.elo0, self.elo1)
    }

    /// LLR of the trinomial model.
    pub fn llr_trinomial(&self, results: &Trinomial) -> f64 {
        let (values, counts) = results.outcomes();
        log_likelihood_ratio(&values, &counts, self.elo0, self.elo1)
    }

    /// The decision for a log-likelihood ratio.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_of_reference_scores() {
        // 400 * log10(3) = 190.8485 (python3: 400*math.log10(3)).
        assert!(close(elo_from_score(0.75), 190.848_501_9, 1e-6));
        assert!(close(elo_from_score(0.25), -190.848_501_9, 1e-6));
        assert_eq!(elo_from_score(0.5), 0.0);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        for elo in [-300.0, -5.0, 0.0, 35.0, 400.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
        // 400 Elo means odds of 10 to 1.
        assert!(close(score_from_elo(400.0), 10.0 / 11.0, 1e-12));
    }

    #[test]
    fn trinomial_interval_matches_hand_computation() {
        // 60 wins, 20 draws, 20 losses: mean 0.7, variance
        // (60*0.09 + 20*0.04 + 20*0.49)/100 = 0.16, standard error 0.04.
        let results = Trinomial {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let estimate = elo_trinomial(&results).unwrap();
        assert!(close(estimate.elo, 147.1907, 1e-3), "{estimate:?}");
        // python3: -400*math.log10(1/(0.7-1.959963984540054*0.04)-1) = 86.2250...
        // and with + : 218.2518...
        assert!(close(estimate.lower, 86.2250, 1e-3), "{estimate:?}");
        assert!(close(estimate.upper, 218.2518, 1e-3), "{estimate:?}");
        assert_eq!(elo_trinomial(&Trinomial::default()), None);
    }

    #[test]
    fn pentanomial_interval_uses_pairs() {
        // 10 pairs of 2 points and 10 of 1 point: pair scores 1.0 and 0.5, mean 0.75,
        // variance 0.0625, standard error sqrt(0.0625/20) = 0.0559017.
        let pairs = Pentanomial {
            counts: [0, 0, 10, 0, 10],
        };
        let estimate = elo_pentanomial(&pairs).unwrap();
        assert!(close(estimate.elo, 190.8485, 1e-3));
        let se = (0.0625f64 / 20.0).sqrt();
        assert!(close(
            estimate.lower,
            elo_from_score(0.75 - Z_95 * se),
            1e-9
        ));
        assert!(estimate.lower < estimate.elo && estimate.elo < estimate.upper);
    }

    #[test]
    fn a_sample_without_spread_has_no_interval() {
        // One drawn pair (1 point of 2): the score is known, its error is not.
        let pairs = Pentanomial {
            counts: [0, 0, 1, 0, 0],
        };
        let estimate = elo_pentanomial(&pairs).unwrap();
        assert_eq!(estimate.elo, 0.0);
        assert!(estimate.lower.is_nan() && estimate.upper.is_nan());
        // With some spread the interval is real.
        let pairs = Pentanomial {
            counts: [0, 1, 1, 0, 0],
        };
        let estimate = elo_pentanomial(&pairs).unwrap();
        assert!(estimate.lower < estimate.elo && estimate.elo < estimate.upper);
    }

    #[test]
    fn sprt_bounds_are_the_wald_bounds() {
        let sprt = SprtParams {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lower, upper) = sprt.bounds();
        // ln(0.05/0.95) = -2.944439
        assert!(close(lower, -2.944_439, 1e-6));
        assert!(close(upper, 2.944_439, 1e-6));
        assert_eq!(sprt.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(sprt.decide(-3.0), SprtDecision::AcceptH0);
        assert_eq!(sprt.decide(0.0), SprtDecision::Continue);
    }

    #[test]
    fn constrained_mle_hits_its_target() {
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let observed = [0.1, 0.2, 0.3, 0.25, 0.15];
        for target in [0.3, 0.5, 0.52, 0.7] {
            let p = constrained_mle(&values, &observed, target).unwrap();
            let sum: f64 = p.iter().sum();
            let mean: f64 = p.iter().zip(values).map(|(p, v)| p * v).sum();
            assert!(close(sum, 1.0, 1e-9));
            assert!(close(mean, target, 1e-9));
        }
    }

    #[test]
    fn trinomial_llr_matches_independent_computation() {
        // Reference values from python3 by a different method: the constrained likelihood
        // maximised directly over the win probability w (d = 2(s - w), l = 1 - w - d) by a
        // 300-step ternary search, then best(s1) - best(s0):
        //   f = lambda w: W*log(w) + D*log(2*(s-w)) + L*log(1-w-2*(s-w))
        // (losses, draws, wins) = (3000, 4200, 3200), elo0 = 0, elo1 = 5 -> 3.0218833
        // (3200, 4200, 3000) -> -6.6330570
        let sprt = SprtParams {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let ahead = Trinomial {
            wins: 3200,
            draws: 4200,
            losses: 3000,
        };
        let behind = Trinomial {
            wins: 3000,
            draws: 4200,
            losses: 3200,
        };
        assert!(close(sprt.llr_trinomial(&ahead), 3.021_883_3, 1e-5));
        assert!(close(sprt.llr_trinomial(&behind), -6.633_057_0, 1e-5));
    }

    #[test]
    fn pentanomial_llr_matches_independent_computation() {
        // Reference from python3 by a different method: the exact constrained maximum of
        // sum n_i log p_i found by three nested ternary searches over p0, p1, p3 (p2 and p4
        // follow from sum p = 1 and sum a_i p_i = s), then best(s1) - best(s0):
        // counts (200, 1100, 2400, 1250, 250), elo0 = 0, elo1 = 5 -> 6.3226606
        let sprt = SprtParams {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let pairs = Pentanomial {
            counts: [200, 1100, 2400, 1250, 250],
        };
        let llr = sprt.llr_pentanomial(&pairs);
        assert!(close(llr, 6.322_660_6, 1e-5), "{llr}");
        assert_eq!(sprt.decide(llr), SprtDecision::AcceptH1);
        // Mirror image: the same evidence against, more strongly (H1 is further away).
        let mirrored = Pentanomial {
            counts: [250, 1250, 2400, 1100, 200],
        };
        assert_eq!(
            sprt.decide(sprt.llr_pentanomial(&mirrored)),
            SprtDecision::AcceptH0
        );
    }

    #[test]
    fn llr_agrees_with_the_normal_approximation_on_large_samples() {
        // The normalised approximation N (s1 - s0)(2 mean - s0 - s1) / (2 var) converges to
        // the exact GSPRT for small Elo differences.
        let sprt = SprtParams {
            elo0: -1.0,
            elo1: 3.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let pairs = Pentanomial {
            counts: [500, 4000, 11000, 4200, 520],
        };
        let (values, counts) = pairs.outcomes();
        let (total, mean, variance) = mean_and_variance(&values, &counts).unwrap();
        let (s0, s1) = (score_from_elo(-1.0), score_from_elo(3.0));
        let approximation = total * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance);
        let exact = sprt.llr_pentanomial(&pairs);
        assert!(
            close(exact, approximation, 0.02 * approximation.abs() + 0.01),
            "{exact} {approximation}"
        );
        assert_eq!(
            SprtParams {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05
            }
            .llr_pentanomial(&Pentanomial::default()),
            0.0
        );
    }
}
