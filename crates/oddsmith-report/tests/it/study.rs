//! Study results in every output: terminal text, tables, charts, report.md and report.html,
//! from a hand-built `StudyDoc` attached to a small run.

use oddsmith_report::sections::{study_subjects, tables};
use oddsmith_report::{FighterData, Meta, ReportData, RunDoc, matchup_doc, study_table};
use oddsmith_rules::{DuelOutcome, Ending, Winner};
use oddsmith_sim::DuelStats;
use oddsmith_stats::DiffEstimate;
use oddsmith_study::balance::Evaluation;
use oddsmith_study::tournament::least_squares;
use oddsmith_study::{
    AssertDoc, AxisDoc, BalanceDoc, BalancePoint, BalanceStatus, CheckCellDoc, CheckStudyDoc,
    CostDoc, CostFit, CostPoint, Est, Interval, PairingDoc, RankDoc, StepDoc, StudyDoc, SweepDoc,
    SweepPoint, TournamentDoc,
};
use polars::prelude::DataFrame;

fn point(x: f64, y: Option<f64>, wins: u64, exact: Option<f64>) -> SweepPoint {
    SweepPoint {
        x,
        y,
        p_a_win: Est::new(wins, 1000),
        p_b_win: (1000 - wins - 10) as f64 / 1000.0,
        p_draw: 0.01,
        rounds_mean: 3.5,
        exact_p_a_win: exact,
    }
}

fn step(y: Option<f64>, from: f64, to: f64, diff: f64) -> StepDoc {
    StepDoc {
        y,
        from,
        to,
        diff: DiffEstimate {
            diff,
            lo: diff - 0.02,
            hi: diff + 0.02,
            z: 9.0,
            p_value: 1e-6,
        },
        unpaired_half_width: 0.043,
        exact_diff: None,
    }
}

fn sweeps() -> Vec<SweepDoc> {
    let one = SweepDoc {
        name: "Knight skill".into(),
        matchup: "knight vs brute".into(),
        trials: 1000,
        x: AxisDoc {
            target: "knight.skill".into(),
            values: vec![3.0, 4.0, 5.0],
            labels: vec![],
        },
        y: None,
        points: vec![
            point(3.0, None, 400, None),
            point(4.0, None, 500, Some(0.5012)),
            point(5.0, None, 610, Some(0.6123)),
        ],
        steps: vec![step(None, 3.0, 4.0, 0.10), step(None, 4.0, 5.0, 0.11)],
    };
    let two = SweepDoc {
        name: "Skill grid".into(),
        matchup: "knight vs brute".into(),
        trials: 1000,
        x: AxisDoc {
            target: "knight.skill".into(),
            values: vec![3.0, 4.0],
            labels: vec![],
        },
        y: Some(AxisDoc {
            target: "brute.skill".into(),
            values: vec![3.0, 4.0],
            labels: vec![],
        }),
        points: vec![
            point(3.0, Some(3.0), 500, None),
            point(4.0, Some(3.0), 620, None),
            point(3.0, Some(4.0), 380, None),
            point(4.0, Some(4.0), 505, None),
        ],
        steps: vec![
            step(Some(3.0), 3.0, 4.0, 0.12),
            step(Some(4.0), 3.0, 4.0, 0.125),
        ],
    };
    vec![one, two]
}

fn balance() -> BalanceDoc {
    let bp = |value: f64, wins: u64, exact: Option<f64>, distinguishable: bool| BalancePoint {
        value,
        monte_carlo: Est::new(wins, 1000),
        exact,
        distinguishable,
    };
    let ev = |value: f64, p: f64| Evaluation { value, p };
    BalanceDoc {
        subject: "knight vs brute: P(A wins)".into(),
        field: "knight.skill".into(),
        target: 0.5,
        range: (1.0, 10.0),
        integer: true,
        method: "exact bisection".into(),
        trials: 1000,
        status: BalanceStatus::Found,
        value: Some(4.0),
        achieved: Some(bp(4.0, 497, None, false)),
        bracket: Some([bp(4.0, 497, None, false), bp(5.0, 612, Some(0.6123), true)]),
        crossing: Some(4.03),
        ends: [ev(1.0, 0.1), ev(10.0, 0.95)],
        evaluations: vec![
            ev(1.0, 0.1),
            ev(10.0, 0.95),
            ev(5.0, 0.6123),
            ev(3.0, 0.39),
            ev(4.0, 0.4987),
        ],
    }
}

const FIGHTERS: [&str; 3] = ["knight", "brute", "duellist"];

fn tournament() -> TournamentDoc {
    // wins[i][j] out of 1000 (both seatings pooled).
    let wins = [[0, 600, 550], [380, 0, 340], [450, 650, 0]];
    let n = 3;
    let win: Vec<Vec<Option<Est>>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| (i != j).then(|| Est::new(wins[i][j], 1000)))
                .collect()
        })
        .collect();
    let payoff: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| (wins[i][j] as f64 - wins[j][i] as f64) / 1000.0)
                .collect()
        })
        .collect();
    let nash = vec![0.6, 0.0, 0.4];
    let rate = |i: usize| Est::new(wins[i].iter().sum(), 2000);
    let by_fighter: Vec<RankDoc> = (0..n)
        .map(|i| RankDoc {
            fighter: FIGHTERS[i].into(),
            win_rate: rate(i),
            exact_win_rate: None,
            loss_rate: (0..n).map(|j| wins[j][i]).sum::<u64>() as f64 / 2000.0,
            nash_share: nash[i],
            dominated: i == 1,
            dominated_by: if i == 1 {
                vec!["knight".into()]
            } else {
                vec![]
            },
        })
        .collect();
    // Priced so that cost predicts win rate (a hand-built, predictive fit: the report only
    // renders it); tolerance 1.5 points.
    let costs = [110.0, 80.0, 100.0];
    let tolerance = 0.015;
    let ys: Vec<f64> = (0..n).map(|i| rate(i).p).collect();
    let (slope, intercept) = least_squares(&costs, &ys).unwrap();
    let points: Vec<CostPoint> = (0..n)
        .map(|i| {
            let fair = intercept + slope * costs[i];
            let w = rate(i);
            let verdict = if (w.p - fair).abs() < tolerance {
                "fair"
            } else if w.lo > fair {
                "under-priced"
            } else if w.hi < fair {
                "over-priced"
            } else {
                "unclear"
            };
            let at = |p: f64| (p - intercept) / slope;
            CostPoint {
                fighter: FIGHTERS[i].into(),
                cost: costs[i],
                source: "file".into(),
                win_rate: w,
                exact_win_rate: None,
                fair: Some(fair),
                residual: Some(w.p - fair),
                verdict: Some(verdict.into()),
                fair_cost: Some(Interval {
                    value: at(w.p),
                    lo: at(w.lo),
                    hi: at(w.hi),
                }),
                fair_cost_usable: true,
            }
        })
        .collect();
    let mut ranked = points.clone();
    ranked.sort_by(|a, b| b.residual.unwrap().total_cmp(&a.residual.unwrap()));
    let by_residual = ranked.iter().map(|p| p.fighter.clone()).collect();
    let mut ranking = by_fighter;
    ranking.sort_by(|a, b| b.win_rate.p.total_cmp(&a.win_rate.p));
    TournamentDoc {
        name: "Loadouts".into(),
        fighters: FIGHTERS.map(String::from).to_vec(),
        trials_per_seating: 500,
        win,
        exact_win: vec![vec![None; n]; n],
        payoff,
        nash,
        ranking,
        // knight vs brute: 1000 fights, 120 deaths, 830 taken out alive, 50 other endings.
        pairings: vec![PairingDoc {
            a: "knight".into(),
            b: "brute".into(),
            trials: 1000,
            rounds_mean: 3.25,
            rounds_sd: 1.5,
            rounds_p50: 3,
            rounds_p90: 5,
            death: Est::new(120, 1000),
            incapacitated: Est::new(830, 1000),
            other: Est::new(50, 1000),
        }],
        costs: Some(CostDoc {
            unit: "points".into(),
            slope,
            slope_ci95: [slope - 0.002, slope + 0.002],
            intercept,
            fit: CostFit::Predictive,
            tolerance,
            points,
            by_residual,
            missing: vec!["squire".into()],
        }),
    }
}

fn check_grid() -> CheckStudyDoc {
    let cell = |row: &str, col: &str, exact: f64, succ: u64| CheckCellDoc {
        row: Some(row.into()),
        col: Some(col.into()),
        description: format!("skill {row} vs TN {col}"),
        exact,
        monte_carlo: Est::new(succ, 2000),
    };
    CheckStudyDoc {
        name: "Climb".into(),
        params: vec![("modifier".into(), "0".into())],
        row_param: Some("skill".into()),
        col_param: Some("tn".into()),
        columns: 2,
        cells: vec![
            cell("8", "5", 0.75, 1510),
            cell("8", "7", 0.4167, 820),
            cell("10", "5", 0.9167, 1840),
            cell("10", "7", 0.5833, 1170),
        ],
    }
}

fn asserts() -> Vec<AssertDoc> {
    vec![
        AssertDoc {
            name: "knight vs brute: p_a_win in [0.45, 0.65]".into(),
            metric: "p_a_win".into(),
            range: (0.45, 0.65),
            value: 0.5123,
            source: "exact".into(),
            ci95: Some((0.49, 0.53)),
            passed: true,
            certain: true,
        },
        AssertDoc {
            name: "knight vs brute: rounds_mean in [1, 3]".into(),
            metric: "rounds_mean".into(),
            range: (1.0, 3.0),
            value: 4.25,
            source: "monte carlo".into(),
            ci95: None,
            passed: false,
            certain: false,
        },
    ]
}

fn study() -> StudyDoc {
    StudyDoc {
        sweeps: sweeps(),
        balance: Some(balance()),
        tournament: Some(tournament()),
        checks: vec![check_grid()],
        asserts: asserts(),
        readings: vec![],
        balance_readings: vec![],
        cost_readings: vec![],
        placeholders: vec![],
    }
}

/// A run of one matchup (ten recorded duels) with the study attached.
pub(crate) fn report(study: Option<StudyDoc>) -> ReportData {
    let mut stats = DuelStats::default();
    for k in 0..10u32 {
        let mut d = DuelOutcome::empty();
        (d.winner, d.ending) = match k {
            0..6 => (Winner::A, Ending::Incapacitated),
            6..9 => (Winner::B, Ending::Death),
            _ => (Winner::Draw, Ending::RoundCap),
        };
        d.rounds = 1 + k % 4;
        d.damage = [k % 5, k % 3];
        d.hits = [1, 1];
        d.attacks = [2, 2];
        stats.record(&d);
    }
    let m = matchup_doc("knight vs brute", "knight", "brute", &stats, None, &[]);
    let fighter = |name: &str| FighterData {
        name: name.into(),
        spec: serde_json::json!({ "skill": 4 }),
        facts: vec![],
    };
    ReportData {
        run: RunDoc {
            scenario: "Study test".into(),
            ruleset: "draft".into(),
            seed: 7,
            description: None,
            options: vec![],
            matchups: vec![m],
            study,
            comparison: None,
            warnings: Vec::new(),
        },
        stats: vec![stats],
        exact: vec![None],
        checks: None,
        fighters: vec![fighter("knight"), fighter("brute")],
        meta: Meta {
            oddsmith_version: "0.0.0-test".into(),
            generated_at: "2024-01-01T00:00:00Z".into(),
            scenario_file: "study.toml".into(),
            command: "oddsmith run study.toml".into(),
        },
        notes: vec![],
    }
}

fn table<'a>(t: &'a [(&'static str, DataFrame)], name: &str) -> &'a DataFrame {
    &t.iter()
        .find(|x| x.0 == name)
        .unwrap_or_else(|| panic!("table {name}"))
        .1
}

fn f64_at(df: &DataFrame, col: &str, row: usize) -> Option<f64> {
    df.column(col).unwrap().f64().unwrap().get(row)
}

fn str_at<'a>(df: &'a DataFrame, col: &str, row: usize) -> Option<&'a str> {
    df.column(col).unwrap().str().unwrap().get(row)
}

fn bool_at(df: &DataFrame, col: &str, row: usize) -> Option<bool> {
    df.column(col).unwrap().bool().unwrap().get(row)
}

#[test]
fn study_tables_have_every_result() {
    let d = report(Some(study()));
    let t = tables(&d).unwrap();
    let names: Vec<&str> = t.iter().map(|x| x.0).collect();
    assert_eq!(
        names,
        [
            "outcomes",
            "endings",
            "rounds",
            "damage",
            "counters",
            "sweep_points",
            "sweep_steps",
            "balance",
            "balance_result",
            "tournament_matrix",
            "tournament_ranking",
            "tournament_pairings",
            "check_study",
            "asserts",
        ]
    );
    let heights: Vec<usize> = t[5..].iter().map(|x| x.1.height()).collect();
    assert_eq!(heights, [7, 4, 5, 2, 6, 3, 1, 4, 2]);

    let sp = table(&t, "sweep_points");
    assert_eq!(str_at(sp, "sweep", 0), Some("Knight skill"));
    assert_eq!(f64_at(sp, "p_a_win", 2), Some(0.61));
    let e = Est::new(610, 1000);
    assert_eq!(f64_at(sp, "p_a_win_lo", 2), Some(e.lo));
    assert_eq!(f64_at(sp, "p_a_win_hi", 2), Some(e.hi));
    assert_eq!(f64_at(sp, "exact_p_a_win", 0), None);
    assert_eq!(f64_at(sp, "exact_p_a_win", 1), Some(0.5012));
    assert_eq!(f64_at(sp, "y", 0), None);
    assert_eq!(f64_at(sp, "y", 5), Some(4.0));
    assert_eq!(str_at(sp, "y_target", 6), Some("brute.skill"));
    let trials = sp.column("trials").unwrap().u64().unwrap().get(0);
    assert_eq!(trials, Some(1000));

    let st = table(&t, "sweep_steps");
    assert_eq!(f64_at(st, "diff_p_a_win", 1), Some(0.11));
    assert_eq!(f64_at(st, "unpaired_half_width", 0), Some(0.043));
    assert!((f64_at(st, "paired_half_width", 0).unwrap() - 0.02).abs() < 1e-12);

    let b = table(&t, "balance");
    assert_eq!(f64_at(b, "value", 4), Some(4.0));
    assert_eq!(f64_at(b, "p", 2), Some(0.6123));
    let br = table(&t, "balance_result");
    assert_eq!(str_at(br, "role", 0), Some("chosen"));
    assert_eq!(str_at(br, "role", 1), Some("bracket"));
    assert_eq!(f64_at(br, "value", 0), Some(4.0));
    assert_eq!(f64_at(br, "value", 1), Some(5.0));
    assert_eq!(str_at(br, "status", 0), Some("found"));
    assert_eq!(f64_at(br, "exact_p", 0), None);
    assert_eq!(f64_at(br, "exact_p", 1), Some(0.6123));
    assert_eq!(bool_at(br, "distinguishable", 0), Some(false));

    let tm = table(&t, "tournament_matrix");
    assert_eq!(str_at(tm, "fighter", 0), Some("knight"));
    assert_eq!(str_at(tm, "opponent", 0), Some("brute"));
    assert_eq!(f64_at(tm, "p_win", 0), Some(0.6));
    assert_eq!(str_at(tm, "fighter", 5), Some("duellist"));
    assert_eq!(str_at(tm, "opponent", 5), Some("brute"));
    assert_eq!(f64_at(tm, "p_win", 5), Some(0.65));
    assert_eq!(f64_at(tm, "payoff", 0), Some((600.0 - 380.0) / 1000.0));

    let tr = table(&t, "tournament_ranking");
    let fighters: Vec<_> = (0..3).map(|i| str_at(tr, "fighter", i).unwrap()).collect();
    assert_eq!(fighters, ["knight", "duellist", "brute"]);
    assert_eq!(f64_at(tr, "p_win", 0), Some(0.575));
    assert_eq!(f64_at(tr, "nash_share", 1), Some(0.4));
    assert_eq!(bool_at(tr, "dominated", 2), Some(true));
    assert_eq!(bool_at(tr, "dominated", 0), Some(false));
    assert_eq!(str_at(tr, "dominated_by", 2), Some("knight"));
    assert_eq!(f64_at(tr, "cost", 1), Some(100.0));
    assert_eq!(str_at(tr, "verdict", 0), Some("unclear"));
    assert_eq!(str_at(tr, "verdict", 1), Some("under-priced"));
    assert_eq!(str_at(tr, "verdict", 2), Some("fair"));
    // Fair cost: where the line reaches the kit's win rate (duellist: 55 % → 104).
    let fair_cost = f64_at(tr, "fair_cost", 1).unwrap();
    assert!((fair_cost - 104.0).abs() < 1e-9, "{fair_cost}");

    let tp = table(&t, "tournament_pairings");
    assert_eq!(str_at(tp, "fighter", 0), Some("knight"));
    assert_eq!(str_at(tp, "opponent", 0), Some("brute"));
    assert_eq!(f64_at(tp, "rounds_mean", 0), Some(3.25));
    assert_eq!(f64_at(tp, "p_death", 0), Some(0.12));
    assert_eq!(f64_at(tp, "p_incapacitated", 0), Some(0.83));
    assert_eq!(f64_at(tp, "p_death_lo", 0), Some(Est::new(120, 1000).lo));

    let cs = table(&t, "check_study");
    assert_eq!(str_at(cs, "row", 2), Some("10"));
    assert_eq!(str_at(cs, "col", 2), Some("5"));
    assert_eq!(f64_at(cs, "exact_p_success", 2), Some(0.9167));
    assert_eq!(f64_at(cs, "mc_p_success", 2), Some(0.92));

    let a = table(&t, "asserts");
    assert_eq!(bool_at(a, "passed", 0), Some(true));
    assert_eq!(bool_at(a, "passed", 1), Some(false));
    assert_eq!(bool_at(a, "certain", 1), Some(false));
    assert_eq!(f64_at(a, "ci_hi", 1), None);
    assert_eq!(f64_at(a, "value", 1), Some(4.25));

    // Without a study, only the run's tables; with a partial study, only its tables.
    assert_eq!(tables(&report(None)).unwrap().len(), 5);
    let only_asserts = StudyDoc {
        asserts: asserts(),
        ..StudyDoc::default()
    };
    let t = tables(&report(Some(only_asserts))).unwrap();
    assert_eq!(t.last().unwrap().0, "asserts");
    assert_eq!(t.len(), 6);
}

/// An estimate as the terminal prints it, padded to its column.
fn est_text(e: &Est) -> String {
    let t = format!(
        "{:.2} [{:.2} {:.2}]",
        100.0 * e.p,
        100.0 * e.lo,
        100.0 * e.hi
    );
    format!("{t:<23}")
}

#[test]
fn study_text_shows_the_key_numbers() {
    let text = study_table(&study());
    let e = Est::new(610, 1000);
    let want = [
        "1 of 2 assertions FAILED".to_string(),
        "Sweep 1 \"Knight skill\": knight vs brute · x = knight.skill · 1,000 duels per point"
            .to_string(),
        format!(
            "{:.2} [{:.2} {:.2}]",
            100.0 * e.p,
            100.0 * e.lo,
            100.0 * e.hi
        ),
        "61.23".to_string(),
        "3 → 4".to_string(),
        "+10.00 [+8.00 +12.00]".to_string(),
        "<0.0001".to_string(),
        "4.30".to_string(),
        "Sweep 2 \"Skill grid\": knight vs brute · x = knight.skill, y = brute.skill".to_string(),
        // The 2-D sweep as a grid: y down (highest on top), x across; then its steps.
        format!(
            "  {:13}  {:>5}  {:>5}\n  {:13}  {:>5}  {:>5}\n  {:13}  {:>5}  {:>5}\n",
            "brute.skill ↓", "3", "4", "4", "38.00", "50.50", "3", "50.00", "62.00"
        ),
        format!(
            "  {:13}  {:>7}\n  {:13}  {:>7}\n  {:13}  {:>7}\n",
            "brute.skill ↓", "3→4", "4", "+12.50*", "3", "+12.00*"
        ),
        "found: knight.skill = 4".to_string(),
        "knight.skill = 4: P 49.70 [46.61 52.79] · indistinguishable from the target  ← chosen"
            .to_string(),
        "5 evaluations".to_string(),
        // The exact value speaks; Monte Carlo is its check, on the next line.
        "knight.skill = 5: P 61.23 % exact · distinguishable from the target".to_string(),
        "Monte Carlo 61.20 [58.14 64.17], +0.0 standard errors from exact".to_string(),
        "indistinguishable".to_string(),
        "1 knight".to_string(),
        "60.0".to_string(),
        "65.0".to_string(),
        "Most under-priced: duellist (+3.0 points); most over-priced: none.".to_string(),
        "fair: within 1.5 points of the line.".to_string(),
        "No cost for squire: left out of the fit.".to_string(),
        "104.0 [".to_string(),
        "Check \"Climb\" (modifier=0)".to_string(),
        "91.67".to_string(),
        "92.00 [".to_string(),
        "PASS  knight vs brute: p_a_win in [0.45, 0.65] → 51.23 % (exact, 95 % CI [49.00 53.00])"
            .to_string(),
        "FAIL  knight vs brute: rounds_mean in [1, 3] → 4.250 (monte carlo) · uncertain"
            .to_string(),
        "Costs predict win rate. Fair line: P(win) = -23.00 % + 0.750 % × cost in points."
            .to_string(),
        "fight length and lethality per pairing".to_string(),
        format!(
            "  knight vs brute  {:>14}  {:>7}  {}  {}\n",
            "3.25±1.50",
            "3/5",
            est_text(&Est::new(120, 1000)),
            est_text(&Est::new(830, 1000)).trim_end()
        ),
    ];
    for w in &want {
        assert!(text.contains(w.as_str()), "{w:?} missing in:\n{text}");
    }
    // The ranking row of the dominated loadout is marked.
    let brute_row = text
        .lines()
        .find(|l| l.trim_start().starts_with("3  brute"))
        .unwrap_or_else(|| panic!("ranking row in:\n{text}"));
    assert!(brute_row.ends_with("by knight"), "{brute_row}");
    assert!(brute_row.contains(" 0.0 "), "Nash share 0 in {brute_row}");
    for l in text.lines() {
        assert!(
            l.chars().count() <= 100,
            "too long ({}): {l}",
            l.chars().count()
        );
    }
    assert_eq!(study_table(&StudyDoc::default()), "");
}

#[test]
fn report_has_study_section_charts_and_failed_assertion() {
    let dir = std::env::temp_dir().join(format!("oddsmith-report-study-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = report(Some(study()));
    let html_path = oddsmith_report::write_report(&dir, &d).unwrap();
    let stems = [
        "sweep-1-knight-skill",
        "sweep-2-skill-grid",
        "balance",
        "tournament-matrix",
        "tournament-cost",
        "check-1-climb",
    ];
    for stem in stems {
        let svg = std::fs::read_to_string(dir.join(format!("charts/{stem}.svg")))
            .unwrap_or_else(|e| panic!("{stem}.svg: {e}"));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        let png = std::fs::read(dir.join(format!("charts/{stem}.png"))).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    }
    let texts = |stem: &str| -> Vec<String> {
        let svg = std::fs::read_to_string(dir.join(format!("charts/{stem}.svg"))).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        doc.descendants()
            .filter(|n| n.tag_name().name() == "text")
            .filter_map(|n| n.text().map(|t| t.trim().to_string()))
            .collect()
    };
    let grid = texts("sweep-2-skill-grid");
    assert!(grid.iter().any(|t| t == "62 %"), "cell text in {grid:?}");
    assert!(grid.iter().any(|t| t == "contour at 50 %"), "{grid:?}");
    let cost = texts("tournament-cost");
    for w in ["knight", "brute", "duellist", "fair line (least squares)"] {
        assert!(cost.iter().any(|t| t == w), "{w:?} in {cost:?}");
    }
    let matrix = texts("tournament-matrix");
    assert!(matrix.iter().any(|t| t == "65 %"), "{matrix:?}");
    let one = texts("sweep-1-knight-skill");
    assert!(one.iter().any(|t| t == "exact"), "{one:?}");
    for t in ["sweep_points", "tournament_ranking", "asserts"] {
        assert!(dir.join(format!("tables/{t}.csv")).is_file(), "{t}.csv");
        assert!(
            dir.join(format!("tables/{t}.parquet")).is_file(),
            "{t}.parquet"
        );
    }
    let csv = std::fs::read_to_string(dir.join("tables/tournament_matrix.csv")).unwrap();
    assert!(
        csv.starts_with("scenario,ruleset,seed,fighter,opponent,p_win,"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 7);

    let html = std::fs::read_to_string(&html_path).unwrap();
    for w in [
        "<h2 id=\"study\">Study</h2>",
        "<h3>Assertions: 1 passed, 1 failed</h3>",
        "<h3>Sweep 1: Knight skill</h3>",
        "<h3>Sweep 2: Skill grid</h3>",
        "<h3>Balance</h3>",
        "<h3>Tournament: Loadouts</h3>",
        "<h3>Check: Climb</h3>",
        "share their random numbers",
        "Nash mix: the share of each loadout",
        "under-priced",
        "<h4>Fight length and lethality</h4>",
        "<th>brute.skill ↓ / knight.skill →</th><th>3</th><th>4</th>",
        "<details><summary>Every point with its exact value",
        "<td>knight vs brute</td><td class=\"num\">3.25 ± 1.50</td><td class=\"num\">3 / 5</td><td class=\"num\">12.00 % [10.13, 14.16]</td>",
    ] {
        assert!(html.contains(w), "{w:?} in report.html");
    }
    let banner = html
        .find("<div class=\"fail\">")
        .expect("failed-assertion banner");
    let results = html.find("<h2>Results</h2>").unwrap();
    assert!(banner < results, "banner at the top");
    let banner_text = &html[banner..results];
    assert!(banner_text.contains("1 assertion failed"), "{banner_text}");
    assert!(
        banner_text.contains("rounds_mean in [1, 3]"),
        "{banner_text}"
    );
    assert!(
        !banner_text.contains("p_a_win in"),
        "only failed ones: {banner_text}"
    );
    // Study charts sit in their subsections only, after the study heading and before the
    // general charts; the run's own charts stay in the general list.
    let study_at = html.find("<h2 id=\"study\">").unwrap();
    let charts_at = html.find("<h2>Charts</h2>").unwrap();
    for title in [
        "Knight skill: P(A wins), knight vs brute",
        "Loadouts: P(row beats column)",
        "Loadouts: P(win) against cost",
    ] {
        let label = format!("aria-label=\"{title}\"");
        assert_eq!(html.matches(&label).count(), 1, "{title} once");
        let at = html.find(&label).unwrap();
        assert!(study_at < at && at < charts_at, "{title} in the study part");
    }
    assert!(html[charts_at..].contains("aria-label=\"Fight length: knight vs brute\""));

    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("## Study"));
    assert!(md.contains("> **1 assertion failed:**"));
    assert_eq!(md.matches("(charts/sweep-2-skill-grid.svg)").count(), 1);
    assert!(md.contains("### Tournament: Loadouts"));
    assert!(md.contains("[CSV](tables/check_study.csv)"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// For a look by eye: prints the study text and writes the report to
/// `$ODDSMITH_STUDY_REPORT` (`cargo test -p oddsmith-report -- --ignored --nocapture`).
#[test]
#[ignore = "prints the study text and writes a report for a look by eye"]
fn look_at_study_output() {
    println!("{}", study_table(&study()));
    if let Some(dir) = std::env::var_os("ODDSMITH_STUDY_REPORT") {
        oddsmith_report::write_report(std::path::Path::new(&dir), &report(Some(study()))).unwrap();
    }
}

#[test]
fn unreached_balance_and_single_check() {
    let mut b = balance();
    b.status = BalanceStatus::NotInRange;
    (b.value, b.achieved, b.bracket) = (None, None, None);
    b.ends = [
        Evaluation {
            value: 1.0,
            p: 0.61,
        },
        Evaluation {
            value: 10.0,
            p: 0.97,
        },
    ];
    b.evaluations = b.ends.to_vec();
    let mut single = check_grid();
    (single.row_param, single.col_param) = (None, None);
    single.cells.truncate(1);
    (single.cells[0].row, single.cells[0].col) = (None, None);
    let s = StudyDoc {
        balance: Some(b),
        checks: vec![single],
        ..StudyDoc::default()
    };
    let text = study_table(&s);
    assert!(
        text.contains("NOT IN RANGE: P = 61.00 % at 1 and 97.00 % at 10"),
        "{text}"
    );
    assert!(
        text.contains("skill 8 vs TN 5: exact 75.00 % · Monte Carlo 75.50 ["),
        "{text}"
    );
    let t = tables(&report(Some(s.clone()))).unwrap();
    let br = table(&t, "balance_result");
    assert_eq!(br.height(), 1);
    assert_eq!(str_at(br, "role", 0), Some("none"));
    assert_eq!(str_at(br, "status", 0), Some("not_in_range"));
    assert_eq!(f64_at(br, "value", 0), None);
    assert_eq!(table(&t, "check_study").height(), 1);
    let stems: Vec<String> = study_subjects(&s)
        .iter()
        .flat_map(|x| x.charts())
        .map(|f| f.0)
        .collect();
    assert_eq!(stems, ["balance"], "no chart for a single check");
}

/// The P(A wins) chart of a one-matchup page keeps its bar (below the title, as long as the
/// estimate), its category label and the dashed 50 % line across the plot.
#[test]
fn single_matchup_win_chart_has_bar_label_and_reference() {
    let d = report(None);
    let chart = oddsmith_report::sections::outcomes::win_probability(&d);
    let svg = oddsmith_report::charts::svg(&chart).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let num = |n: &roxmltree::Node, a: &str| -> f64 { n.attribute(a).unwrap().parse().unwrap() };
    let texts = svg_text_nodes(&doc);
    let title_bottom = texts
        .iter()
        .find(|(t, _)| t.contains("P(first fighter wins)"))
        .map(|&(_, y)| y + 22.0)
        .expect("title");
    // The x axis: the tick labels "0 %" and "100 %" give the pixel scale.
    let tick = |label: &str| {
        doc.descendants()
            .find(|n| n.tag_name().name() == "text" && n.text().map(str::trim) == Some(label))
            .map(|n| num(&n, "x"))
            .unwrap_or_else(|| panic!("tick {label}"))
    };
    let (x0, x100) = (tick("0 %"), tick("100 %"));
    let px = |p: f64| x0 + p * (x100 - x0);
    let axis_y = doc
        .descendants()
        .find(|n| n.tag_name().name() == "text" && n.text().map(str::trim) == Some("0 %"))
        .map(|n| num(&n, "y"))
        .unwrap();
    // The bar: 60 % long, inside the plot (under the title, above the axis), not inverted.
    let bars: Vec<_> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "rect" && n.attribute("opacity") == Some("0.55"))
        .filter(|n| num(n, "x") == x0)
        .collect();
    assert_eq!(bars.len(), 1, "one bar");
    let bar = &bars[0];
    let (y, h, w) = (num(bar, "y"), num(bar, "height"), num(bar, "width"));
    assert!(h > 10.0, "bar height {h}");
    assert!(
        y > title_bottom && y + h < axis_y,
        "bar {y}..{} inside the plot",
        y + h
    );
    assert!((x0 + w - px(0.6)).abs() <= 2.0, "bar ends at 60 %");
    // The label of the one category, level with the bar.
    let (_, label_y) = texts
        .iter()
        .find(|(t, _)| t == "knight vs brute")
        .expect("category label");
    assert!((label_y - (y + h / 2.0)).abs() <= 8.0, "label at {label_y}");
    // The dashed reference line at 50 % spans the bar's height (and more).
    let at_half: Vec<(f64, f64)> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "polyline")
        .filter_map(|n| {
            let pts: Vec<(f64, f64)> = n
                .attribute("points")?
                .split_whitespace()
                .filter_map(|p| {
                    let (a, b) = p.split_once(',')?;
                    Some((a.parse().ok()?, b.parse().ok()?))
                })
                .collect();
            pts.iter()
                .all(|&(x, _)| (x - px(0.5)).abs() <= 1.0)
                .then(|| {
                    let ys = pts.iter().map(|p| p.1);
                    (
                        ys.clone().fold(f64::INFINITY, f64::min),
                        ys.fold(f64::NEG_INFINITY, f64::max),
                    )
                })
        })
        .filter(|(lo, hi)| hi > lo)
        .collect();
    assert!(at_half.len() >= 2, "dashes of the 50 % line: {at_half:?}");
    let top = at_half.iter().map(|d| d.0).fold(f64::INFINITY, f64::min);
    let bottom = at_half
        .iter()
        .map(|d| d.1)
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(
        top <= y && bottom >= y + h,
        "50 % line {top}..{bottom} spans the bar"
    );
    assert!(top > title_bottom, "50 % line under the title");
}

/// Each text of an SVG with its `y`.
fn svg_text_nodes(doc: &roxmltree::Document) -> Vec<(String, f64)> {
    doc.descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter_map(|n| {
            Some((
                n.text()?.trim().to_string(),
                n.attribute("y")?.parse().ok()?,
            ))
        })
        .collect()
}

/// A sweep over text values: the values as written in the terminal, the tables (beside
/// their positions) and the chart, which draws one interval bar per value.
#[test]
fn sweep_over_text_values_shows_the_values() {
    let sweep = SweepDoc {
        name: "Overflow".into(),
        matchup: "knight vs brute".into(),
        trials: 1000,
        x: AxisDoc {
            target: "options.wound_overflow".into(),
            values: vec![0.0, 1.0],
            labels: vec!["keep".into(), "reset".into()],
        },
        y: None,
        points: vec![
            point(0.0, None, 480, None),
            point(1.0, None, 530, Some(0.52)),
        ],
        steps: vec![step(None, 0.0, 1.0, 0.05)],
    };
    let s = StudyDoc {
        sweeps: vec![sweep.clone()],
        ..StudyDoc::default()
    };
    let text = study_table(&s);
    assert!(text.contains("keep → reset"), "{text}");
    assert!(
        text.lines().any(|l| l.trim_start().starts_with("reset ")),
        "{text}"
    );
    let d = report(Some(s));
    let t = tables(&d).unwrap();
    let points = table(&t, "sweep_points");
    assert_eq!(str_at(points, "x_value", 1), Some("reset"));
    assert_eq!(f64_at(points, "x", 1), Some(1.0));
    let steps = table(&t, "sweep_steps");
    assert_eq!(str_at(steps, "x_from_value", 0), Some("keep"));
    assert_eq!(str_at(steps, "x_to_value", 0), Some("reset"));
    let chart = oddsmith_report::sections::sweep::sweep_chart(&sweep).unwrap();
    let oddsmith_report::charts::Plot::Intervals(p) = &chart.plot else {
        panic!("one bar per text value: {:?}", chart.plot);
    };
    assert_eq!(p.categories, ["keep", "reset"]);
    assert_eq!(p.exact, [None, Some(0.52)]);
    let texts = super::svg_texts(&oddsmith_report::charts::svg(&chart).unwrap());
    assert!(texts.iter().any(|t| t == "reset"), "{texts:?}");
}

#[test]
fn comparison_part_matchups_do_not_repeat_their_prefix() {
    let mut d = report(None);
    let stats = {
        let mut s = DuelStats::default();
        for k in 0..200u32 {
            let mut o = DuelOutcome::empty();
            (o.winner, o.ending) = if k < 180 {
                (Winner::A, Ending::Death)
            } else {
                (Winner::B, Ending::Incapacitated)
            };
            o.rounds = 1;
            s.record(&o);
        }
        s
    };
    d.run.matchups = vec![matchup_doc(
        "draft: veteran vs novice",
        "draft: veteran",
        "draft: novice",
        &stats,
        None,
        &[],
    )];
    let text = oddsmith_report::run_table(&d.run);
    assert!(
        text.contains("\ndraft: veteran vs novice: veteran favoured: wins "),
        "{text}"
    );
    assert!(
        text.contains("  damage dealt per duel: veteran 0.00±0.00, novice 0.00±0.00;"),
        "{text}"
    );
    // The JSON keeps the full names.
    assert!(
        d.run.matchups[0]
            .verdict
            .starts_with("draft: veteran favoured")
    );
}

#[test]
fn every_table_starts_with_the_run_and_types_empty_columns() {
    use polars::prelude::{DataType, ParquetReader, SerReader};
    // No exact values anywhere: the exact columns are empty.
    let mut d = report(Some(study()));
    d.run.matchups[0].exact = None;
    let mut all_empty = 0;
    for (name, mut df) in tables(&d).unwrap() {
        let names: Vec<&str> = df.get_column_names().iter().map(|c| c.as_str()).collect();
        assert_eq!(names[..3], ["scenario", "ruleset", "seed"], "{name}");
        if df.height() > 0 {
            assert_eq!(str_at(&df, "scenario", 0), Some("Study test"), "{name}");
            assert_eq!(str_at(&df, "ruleset", 0), Some("draft"), "{name}");
            let seed = df.column("seed").unwrap().u64().unwrap().get(0);
            assert_eq!(seed, Some(7), "{name}");
        }
        // The Parquet twin keeps every all-empty numeric column numeric (Float64).
        let bytes = oddsmith_report::write::to_parquet(&mut df).unwrap();
        let back = ParquetReader::new(std::io::Cursor::new(bytes))
            .finish()
            .unwrap();
        for c in df.columns() {
            if !c.is_empty() && c.null_count() == c.len() && c.name().contains("exact") {
                all_empty += 1;
                let t = back.column(c.name()).unwrap().dtype().clone();
                assert_eq!(t, DataType::Float64, "{name}.{}", c.name());
            }
        }
    }
    assert!(all_empty >= 4, "{all_empty} empty exact columns checked");
}

/// A comparison's "In short" gives its verdicts, who wins first, and counts the rest; with no
/// verdict it says that no difference reached the threshold, instead of repeating every
/// part's matchups.
#[test]
fn a_comparison_summary_leads_with_its_verdicts() {
    use oddsmith_report::sections::summary::summary_lines;
    let mut d = report(None);
    let mut c = oddsmith_study::ComparisonDoc {
        rulesets: vec!["book".into(), "house".into()],
        alpha: 0.05,
        practical_threshold: 0.02,
        steps: vec![],
        balance: vec![],
        archetypes: vec![],
        step_comparisons: vec![],
        checks: vec![],
        unmatched: vec![],
        verdicts: (0..3)
            .map(|k| format!("m{k}: fights last longer under book"))
            .chain((0..3).map(|k| format!("m{k}: side A wins 5 points more often under book")))
            .collect(),
    };
    d.run.comparison = Some(c.clone());
    let lines = summary_lines(&d);
    assert_eq!(
        lines,
        [
            "m0: side A wins 5 points more often under book.",
            "m1: side A wins 5 points more often under book.",
            "m2: side A wins 5 points more often under book.",
            "m0: fights last longer under book.",
            "… and 2 more verdicts (see Study).",
        ]
    );
    c.verdicts.clear();
    d.run.comparison = Some(c);
    assert_eq!(
        summary_lines(&d),
        ["No difference between book, house is both significant (α = 0.05) and at least 2 points."]
    );
}

/// The explorer's slider: a sweep's chart with one point marked, on each kind of sweep chart.
#[test]
fn a_sweep_chart_marks_the_chosen_point() {
    use oddsmith_report::charts::{Plot, svg};
    use oddsmith_report::sections::sweep::{sweep_chart, sweep_chart_at};
    let [one, two] = <[SweepDoc; 2]>::try_from(sweeps()).unwrap();
    // A curve: one more series, a single point at the chosen x and its P(A wins).
    let plain = sweep_chart(&one).unwrap();
    let marked = sweep_chart_at(&one, 2).unwrap();
    let (Plot::Xy(a), Plot::Xy(b)) = (&plain.plot, &marked.plot) else {
        panic!("a numeric sweep draws a curve");
    };
    assert_eq!(b.series.len(), a.series.len() + 1);
    let m = b.series.last().unwrap();
    assert_eq!(m.name, "knight.skill = 5");
    assert_eq!(m.points, vec![(5.0, 0.61)]);
    assert!(svg(&marked).unwrap().contains("knight.skill = 5"));
    // A heat map: the cell, its column and its row framed; the others as they were.
    let Plot::Heatmap(h) = &sweep_chart_at(&two, 1).unwrap().plot else {
        panic!("a two-dimensional sweep draws a heat map");
    };
    assert_eq!(h.cell_text[0][1], "» 62 % «");
    assert_eq!(h.cell_text[1][1], "50 %");
    assert_eq!(
        (h.x_labels[1].as_str(), h.y_labels[0].as_str()),
        ("» 4 «", "» 3 «")
    );
    assert_eq!(h.x_labels[0], "3");
    // Past the last point there is nothing to mark.
    assert!(sweep_chart_at(&one, 3).is_none());
}

/// Issue 38 item 7: "In short" has a sentence for every study of the file: each 1-D and 2-D
/// sweep, the balance, the tournament, every `[[check]]` (a grid's lowest and highest cells)
/// and the assertions.
#[test]
fn in_short_covers_every_study_of_the_file() {
    use oddsmith_report::sections::summary::summary_lines;
    let d = report(Some(study()));
    let lines = summary_lines(&d);
    let has = |needle: &str| lines.iter().any(|l| l.contains(needle));
    for s in &d.run.study.as_ref().unwrap().sweeps {
        assert!(has(&format!("Sweep \"{}\"", s.name)), "{lines:#?}");
    }
    assert!(has("Balance:") && has("Tournament:"), "{lines:#?}");
    assert!(
        has(
            "Check \"Climb\" (4 cells): P(success) from 41.67 % (skill = 8, tn = 7) to 91.67 % (skill = 10, tn = 5) exactly."
        ),
        "{lines:#?}"
    );
    assert!(
        has("Assertions: 1 of 2 fail: knight vs brute: rounds_mean in [1, 3]."),
        "{lines:#?}"
    );
}

/// Issue 38 item 7: no "Charts" heading over nothing (every chart already sits in its
/// section, as a check-only study's do).
#[test]
fn no_empty_charts_heading() {
    use oddsmith_report::sections::charts;
    let mut d = report(Some(StudyDoc {
        checks: vec![check_grid()],
        ..StudyDoc::default()
    }));
    d.run.matchups.clear();
    d.stats.clear();
    d.exact.clear();
    let figures = charts(&d)
        .into_iter()
        .map(|(stem, c)| oddsmith_report::page::Figure {
            stem,
            title: c.title.clone(),
            svg: String::new(),
        })
        .collect();
    let page = oddsmith_report::sections::page(&d, &[], figures);
    assert!(
        page.sections.iter().all(|s| s.title != "Charts"),
        "{:?}",
        page.sections.iter().map(|s| &s.title).collect::<Vec<_>>()
    );
}

/// Issue 38 item 4: who acts first, in the terminal, the JSON, the page and its table: P(A acts
/// first) exact with its Monte Carlo check, and P(A wins) given each order from the counters.
#[test]
fn who_acts_first_is_reported_everywhere() {
    use oddsmith_report::FirstMoveDoc;
    use oddsmith_rules::{ExactDuel, FirstMove};
    let mut stats = DuelStats::default();
    // 10 duels: A acts first in 4 (wins 3), B in 6 (A wins 2).
    for k in 0..10u32 {
        let mut o = DuelOutcome::empty();
        let first = k < 4;
        let a_wins = if first { k < 3 } else { k < 6 };
        (o.winner, o.ending) = if a_wins {
            (Winner::A, Ending::Death)
        } else {
            (Winner::B, Ending::Death)
        };
        o.rounds = 2;
        o.counters[0] = u32::from(first);
        o.counters[1] = u32::from(first && a_wins);
        stats.record(&o);
    }
    let solved = |p: f64| ExactDuel::from_pmf([p, 1.0 - p, 0.0], vec![0.0, 0.0, 1.0], 0.0);
    let f = FirstMove {
        p_a_first: 0.4,
        counters: [0, 1],
        exact: [Some(solved(0.7)), Some(solved(0.35))],
    };
    let doc = FirstMoveDoc::of(&f, &stats);
    let a = doc.given_a_first.as_ref().unwrap();
    let b = doc.given_b_first.as_ref().unwrap();
    assert_eq!((a.trials, a.a_wins, b.trials, b.a_wins), (4, 3, 6, 2));
    assert_eq!((a.exact_p_a_win, b.exact_p_a_win), (Some(0.7), Some(0.35)));
    assert_eq!(doc.p_a_first_monte_carlo[0], 0.4);
    let json = serde_json::to_value(&doc).unwrap();
    assert_eq!(json["given_b_first"]["exact_p_a_win"], 0.35);
    let mut d = report(None);
    d.run.matchups[0].first_move = Some(doc);
    let text = oddsmith_report::run_table(&d.run);
    assert!(
        text.contains("knight acts first 40.00 % (exact; Monte Carlo 40.00 % ["),
        "{text}"
    );
    assert!(
        text.contains("when knight acts first 70.00 % exact (Monte Carlo 75.00 % ["),
        "{text}"
    );
    assert!(
        text.contains("when brute acts first 35.00 % exact"),
        "{text}"
    );
    let t = tables(&d).unwrap();
    let df = table(&t, "first_move");
    assert_eq!(f64_at(df, "exact_p_a_win_given_a_first", 0), Some(0.7));
    assert_eq!(f64_at(df, "p_a_win_given_b_first", 0), Some(2.0 / 6.0));
    let dir = std::env::temp_dir().join(format!("oddsmith-report-first-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    oddsmith_report::write_report(&dir, &d).unwrap();
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("P(A wins | B acts first)"), "{html}");
    std::fs::remove_dir_all(&dir).unwrap();
}
