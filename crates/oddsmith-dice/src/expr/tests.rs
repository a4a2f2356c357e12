use super::*;
use crate::stream::stream;

fn parse(s: &str) -> DiceExpr {
    DiceExpr::parse(s).unwrap_or_else(|e| panic!("{e}"))
}

fn vars(name: &str) -> Option<i64> {
    match name {
        "str" => Some(3),
        "dex" => Some(-1),
        _ => None,
    }
}

#[test]
fn examples_parse_and_round_trip() {
    let cases = [
        ("2d10+5", "2d10+5"),
        ("1d6-1", "1d6-1"),
        ("3d4+22", "3d4+22"),
        ("d20", "1d20"),
        ("4d6+1d4-2", "4d6+1d4-2"),
        ("5", "5"),
        ("-3+1d6", "-3+1d6"),
        ("3d6!", "3d6!"),
        ("3d6!2", "3d6!2"),
        ("str+15", "str+15"),
        ("1d6+str", "1d6+str"),
        ("  2D10 +  5 ", "2d10+5"),
        ("1d6 + STR - Dex", "1d6+str-dex"),
        ("+d8", "1d8"),
        ("- 2d6", "-2d6"),
        ("1000d1000000", "1000d1000000"),
    ];
    for (input, canonical) in cases {
        let e = parse(input);
        assert_eq!(e.to_string(), canonical, "display of {input:?}");
        assert_eq!(parse(canonical), e, "round trip of {input:?}");
        assert_eq!(input.parse::<DiceExpr>().unwrap(), e);
    }
}

#[test]
fn whitespace_inside_a_dice_term_is_rejected() {
    // A dice term is one token: "2 d10" is the number 2 followed by a stray term.
    let err = DiceExpr::parse("2 d10").unwrap_err();
    assert_eq!(
        (err.column, err.message.as_str()),
        (3, "unexpected character 'd'")
    );
}

#[test]
fn exact_distributions() {
    let d = parse("2d10+5").dist(&no_vars).unwrap();
    assert_eq!((d.min(), d.max()), (7, 25));
    assert_eq!(d.ratio(16), (1, 10));
    let d = parse("1d6-1").dist(&no_vars).unwrap();
    assert_eq!((d.min(), d.max()), (0, 5));
    assert_eq!(d, Dist::uniform(0, 5));
    let d = parse("3d4+22").dist(&no_vars).unwrap();
    assert!((d.mean() - 29.5).abs() < 1e-12);
    let d = parse("-3+1d6").dist(&no_vars).unwrap();
    assert_eq!(d, Dist::uniform(-2, 3));
    assert_eq!(parse("5").dist(&no_vars).unwrap(), Dist::constant(5));
    let d = parse("1d4-1d4").dist(&no_vars).unwrap();
    assert_eq!((d.min(), d.max(), d.ratio(0)), (-3, 3, (1, 4)));
    let d = parse("3d6!2").dist(&no_vars).unwrap();
    assert_eq!(d, Dist::exploding(6, 2).unwrap().sum_iid(3).unwrap());
}

#[test]
fn variables() {
    let e = parse("1d6+str-dex+str");
    assert_eq!(e.variables().collect::<Vec<_>>(), ["str", "dex"]);
    let d = e.dist(&vars).unwrap();
    assert_eq!((d.min(), d.max()), (1 + 3 + 1 + 3, 6 + 3 + 1 + 3));
    assert_eq!(parse("str+15").dist(&vars).unwrap(), Dist::constant(18));
    assert_eq!(
        parse("1d6+wis").dist(&vars),
        Err(DiceError::UnknownVariable("wis".into()))
    );
    let mut rng = stream(1, 0);
    assert_eq!(
        parse("1d6+wis").sample(&mut rng, &vars),
        Err(DiceError::UnknownVariable("wis".into()))
    );
    assert_eq!(parse("str+15").sample(&mut rng, &vars), Ok(18));
    assert_eq!(parse("2d6").variables().count(), 0);
}

#[test]
fn unbounded_and_overflow() {
    assert_eq!(parse("3d6!").dist(&no_vars), Err(DiceError::Unbounded));
    assert_eq!(
        parse("1000d1000000").dist(&no_vars),
        Err(DiceError::Overflow)
    );
    let big = |_: &str| Some(i64::MAX);
    let mut rng = stream(1, 0);
    assert_eq!(
        parse("x+1").sample(&mut rng, &big),
        Err(DiceError::Overflow)
    );
    assert_eq!(parse("x+1").dist(&big), Err(DiceError::Overflow));
    // Intermediate sums may leave i64 as long as the result fits.
    assert_eq!(parse("x+1-2").sample(&mut rng, &big), Ok(i64::MAX - 1));
    assert_eq!(parse("x+1-2").dist(&big), Ok(Dist::constant(i64::MAX - 1)));
}

#[test]
fn sample_mean_of_2d10_plus_5() {
    // Mean 16, variance 2 · 33/4 = 16.5.
    const N: u32 = 100_000;
    let e = parse("2d10+5");
    let mut rng = stream(12345, 0);
    let mut sum = 0i64;
    for _ in 0..N {
        let x = e.sample(&mut rng, &no_vars).unwrap();
        assert!((7..=25).contains(&x));
        sum += x;
    }
    let mean = sum as f64 / f64::from(N);
    let sigma = (16.5 / f64::from(N)).sqrt();
    assert!((mean - 16.0).abs() < 4.0 * sigma, "mean {mean}");
}

#[test]
fn sample_respects_explosion_limit() {
    let e = parse("1d2!3");
    let mut rng = stream(5, 0);
    for _ in 0..1_000 {
        let x = e.sample(&mut rng, &no_vars).unwrap();
        assert!([1, 3, 5, 7, 8].contains(&x), "{x}");
    }
}

#[test]
fn bad_inputs() {
    let cases = [
        ("", 1, "empty expression"),
        ("   ", 1, "empty expression"),
        ("2d", 3, "expected the number of sides after 'd'"),
        ("d0", 2, "a die must have at least 1 side"),
        ("0d6", 1, "the number of dice must be at least 1"),
        ("2x6", 2, "unexpected character 'x'"),
        (
            "2d6+",
            5,
            "expected a dice term, number or variable after '+'",
        ),
        (
            "++2",
            2,
            "expected a dice term, number or variable after '+', found '+'",
        ),
        ("2d6!0x", 5, "the explosion limit must be at least 1"),
        ("2d6!2x", 6, "unexpected character 'x'"),
        ("1001d6", 1, "too many dice (at most 1000)"),
        ("2d1000001", 3, "too many sides (at most 1000000)"),
        ("99999999999999999999", 1, "number too large"),
        ("1+9223372036854775808", 3, "number too large"),
        ("3d6!1001", 5, "explosion limit too large (at most 1000)"),
        (
            "1d1!",
            4,
            "a 1-sided die cannot explode without a limit (write e.g. '1d1!3')",
        ),
        ("d+3", 2, "expected the number of sides after 'd'"),
        (
            "*3",
            1,
            "unexpected character '*': expected a dice term, number or variable",
        ),
        (
            "2d6 -",
            6,
            "expected a dice term, number or variable after '-'",
        ),
        (
            "é+1",
            1,
            "unexpected character 'é': expected a dice term, number or variable",
        ),
        (
            "ü+x",
            1,
            "unexpected character 'ü': expected a dice term, number or variable",
        ),
        (
            "1+ü",
            3,
            "expected a dice term, number or variable after '+', found 'ü'",
        ),
        ("d20_bonus", 4, "unexpected character '_'"),
    ];
    for (input, column, message) in cases {
        let err = DiceExpr::parse(input).expect_err(input);
        assert_eq!(
            (err.column, err.message.as_str(), err.input.as_str()),
            (column, message, input),
            "input {input:?}"
        );
    }
}

#[test]
fn parse_error_display() {
    let err = DiceExpr::parse("2d").unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid dice expression \"2d\": expected the number of sides after 'd' at column 3"
    );
    let wrapped = DiceError::from(err.clone());
    assert_eq!(wrapped.to_string(), err.to_string());
}
