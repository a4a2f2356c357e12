//! End-to-end tests of the public API: chunked accumulation and merging.

use oddsmith_stats::{
    IntHistogram, OutcomeCounts, Proportion, Summary, Welford, Z95, diff_independent, diff_paired,
    iterated_dominance, ks_two_sample, solve_zero_sum, strictly_dominated, wilson_half_width,
    wilson95,
};

/// Deterministic pseudo-random fight lengths in 1..=60 (a simple LCG).
fn data(len: usize) -> Vec<u64> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            1 + (state >> 33) % 60
        })
        .collect()
}

#[test]
fn chunked_merge_equals_single_pass() {
    let values = data(10_007);
    let mut single_h = IntHistogram::new();
    let mut single_w = Welford::new();
    for &v in &values {
        single_h.record(v);
        single_w.push(v as f64);
    }

    // Seven uneven chunks, merged in chunk-index order like the engine does.
    let chunk_len = values.len().div_ceil(7);
    let chunks: Vec<(IntHistogram, Welford)> = values
        .chunks(chunk_len)
        .map(|c| {
            let mut h = IntHistogram::with_capacity(60);
            let mut w = Welford::new();
            for &v in c {
                h.record(v);
                w.push(v as f64);
            }
            (h, w)
        })
        .collect();
    assert_eq!(chunks.len(), 7);
    let mut merged_h = IntHistogram::new();
    let mut merged_w = Welford::new();
    for (h, w) in &chunks {
        merged_h.merge(h);
        merged_w.merge(w);
    }

    assert_eq!(merged_h, single_h);
    assert_eq!(merged_h.summary(), single_h.summary());
    assert_eq!(merged_w.count(), single_w.count());
    assert!((merged_w.mean() - single_w.mean()).abs() < 1e-12 * single_w.mean());
    assert!((merged_w.variance() - single_w.variance()).abs() < 1e-12 * single_w.variance());
    // Histogram moments (exact integer sums) agree with the floating ones.
    assert!((merged_h.mean() - merged_w.mean()).abs() < 1e-9);
    assert!((merged_h.sd() - merged_w.sd()).abs() < 1e-9);

    // Merging in reverse order gives a bit-identical histogram summary.
    let mut reversed = IntHistogram::new();
    for (h, _) in chunks.iter().rev() {
        reversed.merge(h);
    }
    assert_eq!(reversed.summary(), single_h.summary());
}

#[test]
fn summary_of_known_histogram() {
    // Fight lengths: 10 x 1 round, 40 x 2, 30 x 3, 15 x 4, 4 x 5, 1 x 9.
    let mut h = IntHistogram::new();
    for (v, n) in [(1, 10), (2, 40), (3, 30), (4, 15), (5, 4), (9, 1)] {
        h.record_n(v, n);
    }
    let s = h.summary();
    // Σv = 10+80+90+60+20+9 = 269; Σv² = 10+160+270+240+100+81 = 861.
    let var = (100.0 * 861.0 - 269.0 * 269.0) / (100.0 * 99.0);
    assert_eq!(
        s,
        Summary {
            n: 100,
            mean: 2.69,
            sd: f64::sqrt(var),
            min: 1,
            p50: 2, // CDF(2) = 0.50
            p90: 4, // CDF(3) = 0.80, CDF(4) = 0.95
            p99: 5, // CDF(5) = 0.99
            max: 9,
        }
    );
    assert_eq!(h.cdf(3), 0.8);
    assert_eq!(h.quantile(0.51), Some(3));
    assert_eq!(
        h.iter().collect::<Vec<_>>(),
        vec![(1, 10), (2, 40), (3, 30), (4, 15), (5, 4), (9, 1)]
    );
}

#[test]
fn outcome_counts_to_intervals() {
    let values = data(2_000);
    let mut chunks = vec![OutcomeCounts::default(); 7];
    for (i, &v) in values.iter().enumerate() {
        let c = &mut chunks[i * 7 / values.len()];
        match v % 3 {
            0 => c.record_a(),
            1 => c.record_b(),
            _ => c.record_draw(),
        }
    }
    let mut total = OutcomeCounts::default();
    for c in &chunks {
        total.merge(c);
    }
    assert_eq!(total.total(), 2_000);
    assert!((total.p_a() + total.p_b() + total.p_draw() - 1.0).abs() < 1e-12);
    let pa: Proportion = total.a_proportion();
    let (lo, hi) = pa.wilson95();
    assert_eq!((lo, hi), wilson95(total.a_wins, 2_000));
    assert!(lo < total.p_a() && total.p_a() < hi);
    assert!(wilson_half_width(total.a_wins, 2_000, Z95) < 0.025);
}

#[test]
fn accumulators_round_trip_through_serde() {
    let values = data(500);
    let h: IntHistogram = values.iter().copied().collect();
    let w: Welford = values.iter().map(|&v| v as f64).collect();
    let mut c = OutcomeCounts::default();
    c.record_a();
    c.record_draw();
    let mut p = Proportion::default();
    p.record(true);
    p.record(false);

    let h2: IntHistogram = serde_json::from_str(&serde_json::to_string(&h).unwrap()).unwrap();
    let w2: Welford = serde_json::from_str(&serde_json::to_string(&w).unwrap()).unwrap();
    let c2: OutcomeCounts = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
    let p2: Proportion = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
    let s2: Summary = serde_json::from_str(&serde_json::to_string(&h.summary()).unwrap()).unwrap();
    assert_eq!((h2, w2, c2, p2, s2), (h.clone(), w, c, p, h.summary()));
}

/// A loadout tournament as the designer tools build it: win and loss counts per ordered pair,
/// the antisymmetric meta-game `P(i beats j) − P(j beats i)`, its Nash mix and dominance.
#[test]
fn tournament_meta_game() {
    // wins[i][j] = duels loader i won against j out of 1000 (the rest j won; no draws).
    // Sword > axe > spear > sword (a cycle); club loses to everything.
    let wins = [
        [500, 600, 300, 900],
        [400, 500, 700, 800],
        [700, 300, 500, 850],
        [100, 200, 150, 500],
    ];
    let payoff: Vec<Vec<f64>> = (0..4)
        .map(|i| {
            (0..4)
                .map(|j| (f64::from(wins[i][j]) - f64::from(wins[j][i])) / 1000.0)
                .collect()
        })
        .collect();
    for (i, row) in payoff.iter().enumerate() {
        for (j, v) in row.iter().enumerate() {
            assert_eq!(*v, -payoff[j][i], "antisymmetric");
        }
    }
    let s = solve_zero_sum(&payoff).unwrap();
    assert!(s.value.abs() < 1e-12, "a symmetric game has value 0");
    assert_eq!(s.row[3], 0.0, "club is never played");
    assert!((s.row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    // Cycle with margins 0.2 (sword>axe), 0.4 (axe>spear), 0.4 (spear>sword):
    // mix ∝ (0.4, 0.4, 0.2).
    for (got, want) in s.row.iter().zip([0.4, 0.4, 0.2]) {
        assert!((got - want).abs() < 1e-9, "{s:?}");
    }
    // Against the mix every played loadout breaks even; club loses.
    for (i, row) in payoff.iter().enumerate() {
        let vs_mix: f64 = row.iter().zip(&s.col).map(|(a, q)| a * q).sum();
        if i < 3 {
            assert!(vs_mix.abs() < 1e-9);
        } else {
            assert!(vs_mix < 0.0);
        }
    }
    assert_eq!(
        strictly_dominated(&payoff).unwrap(),
        vec![false, false, false, true]
    );
    let d = iterated_dominance(&payoff).unwrap();
    assert_eq!(d.surviving_rows(), vec![0, 1, 2]);
    assert_eq!(d.surviving_cols(), vec![0, 1, 2]);
    assert_eq!(d.rounds, 1);
    // The tournament reports serialise.
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["row"].as_array().map(Vec::len), Some(4));
}

/// Comparing two rulesets: fight lengths with a KS test, win rates with a difference of
/// proportions.
#[test]
fn compare_two_runs() {
    let base = data(20_000);
    let a: IntHistogram = base.iter().copied().collect();
    // Same distribution (uniform on 1..=60), independent draws from two splitmix64 streams.
    let splitmix = |seed: u64| -> IntHistogram {
        let mut x = seed;
        (0..10_000)
            .map(|_| {
                x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = x;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                1 + (z ^ (z >> 31)) % 60
            })
            .collect()
    };
    let same = ks_two_sample(&splitmix(1), &splitmix(2)).unwrap();
    assert!(same.p_value > 0.05, "{same:?}");
    // Every fight one round longer: detected.
    let longer: IntHistogram = base.iter().map(|v| v + 1).collect();
    let shifted = ks_two_sample(&a, &longer).unwrap();
    assert!((shifted.d - 1.0 / 60.0).abs() < 0.01, "{shifted:?}");
    assert!(shifted.p_value < 0.01, "{shifted:?}");

    let indep = diff_independent(5_300, 10_000, 5_000, 10_000).unwrap();
    assert!((indep.diff - 0.03).abs() < 1e-12);
    assert!(indep.lo > 0.0 && indep.hi < 0.06 && indep.p_value < 1e-4);
    let json = serde_json::to_value(indep).unwrap();
    for key in ["diff", "lo", "hi", "z", "p_value"] {
        assert!(json[key].is_number(), "{key}");
    }
    // Paired: the same 10,000 dice tapes under both rulesets; 300 net flips.
    let paired = diff_paired(4_800, 500, 200, 4_500).unwrap();
    assert!((paired.diff - indep.diff).abs() < 1e-12);
    assert!(paired.hi - paired.lo < indep.hi - indep.lo);
}
