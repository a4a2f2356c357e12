//! Dice expressions such as `2d10+5`, `3d6!`, `4d6+1d4-2` or `1d6+str`.
//!
//! Grammar (whitespace allowed between tokens, not inside a dice term):
//!
//! ```text
//! expr  = ['+' | '-'] term (('+' | '-') term)*
//! term  = [count] ('d' | 'D') sides ['!' [limit]] | integer | identifier
//! ident = [a-zA-Z_][a-zA-Z0-9_]*   (case-insensitive; stored lower-case;
//!                                  may not start with `d` + digit)
//! ```
//!
//! `count` is 1..=1000, `sides` 1..=1 000 000; `!` makes every die explode
//! (re-roll and add on its highest face), without limit or at most `limit`
//! (1..=1000) times per die.

use crate::dist::Dist;
use crate::error::DiceError;
use crate::roll::Die;
use rand_core::RngCore;
use std::fmt;
use std::str::FromStr;

/// The most dice a single term may roll.
const MAX_COUNT: u64 = 1000;
/// The most sides a die may have.
const MAX_SIDES: u64 = 1_000_000;
/// The largest explosion limit (`3d6!1000`).
const MAX_EXPLOSION_LIMIT: u64 = 1000;

/// A variable lookup that knows no variables, for expressions without any.
pub fn no_vars(_name: &str) -> Option<i64> {
    None
}

/// Why a dice expression could not be parsed, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid dice expression {input:?}: {message} at column {column}")]
pub struct ParseError {
    /// The whole input that failed to parse.
    pub input: String,
    /// 1-based character column of the problem (one past the end for missing input).
    pub column: usize,
    /// What is wrong, e.g. "expected the number of sides after 'd'".
    pub message: String,
}

/// How a dice term explodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Explode {
    Never,
    Unlimited,
    AtMost(u32),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Atom {
    Dice {
        count: u32,
        die: Die,
        explode: Explode,
    },
    /// A non-negative integer literal (at most `i64::MAX`).
    Const(i64),
    /// A lower-case variable name.
    Var(String),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Term {
    negative: bool,
    atom: Atom,
}

/// A parsed dice expression: a signed sum of dice terms, integers and variables.
///
/// ```
/// use oddsmith_dice::{DiceExpr, no_vars};
/// let e: DiceExpr = "2d10 + 5".parse().unwrap();
/// assert_eq!(e.to_string(), "2d10+5");
/// let d = e.dist(&no_vars).unwrap();
/// assert_eq!((d.min(), d.max()), (7, 25));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DiceExpr {
    terms: Vec<Term>,
}

impl DiceExpr {
    /// Parses an expression such as `2d10+5`, `d20`, `3d6!2` or `1d6+str`.
    ///
    /// # Errors
    /// A [`ParseError`] naming the column and the problem.
    pub fn parse(s: &str) -> Result<DiceExpr, ParseError> {
        Parser {
            input: s,
            chars: s.chars().collect(),
            pos: 0,
        }
        .expr()
    }

    /// The distinct variable names used, in order of first appearance (lower-case).
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.terms
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match &t.atom {
                Atom::Var(name)
                    if !self.terms[..i]
                        .iter()
                        .any(|u| matches!(&u.atom, Atom::Var(n) if n == name)) =>
                {
                    Some(name.as_str())
                }
                _ => None,
            })
    }

    /// Rolls the expression once; `vars` supplies variable values.
    ///
    /// # Errors
    /// [`DiceError::UnknownVariable`] if `vars` returns `None` for a variable,
    /// [`DiceError::Overflow`] if the result does not fit in `i64`.
    pub fn sample<R: RngCore + ?Sized>(
        &self,
        rng: &mut R,
        vars: &dyn Fn(&str) -> Option<i64>,
    ) -> Result<i64, DiceError> {
        let mut total = 0i128;
        for term in &self.terms {
            let value = match &term.atom {
                Atom::Dice {
                    count,
                    die,
                    explode: Explode::Never,
                } => (0..*count).map(|_| i64::from(die.roll(rng))).sum(),
                Atom::Dice {
                    count,
                    die,
                    explode,
                } => {
                    let limit = match *explode {
                        Explode::AtMost(k) => Some(k),
                        _ => None,
                    };
                    (0..*count).map(|_| die.roll_exploding(rng, limit)).sum()
                }
                Atom::Const(n) => *n,
                Atom::Var(name) => lookup(vars, name)?,
            };
            total += if term.negative {
                -i128::from(value)
            } else {
                i128::from(value)
            };
        }
        i64::try_from(total).map_err(|_| DiceError::Overflow)
    }

    /// The exact distribution of the expression; `vars` supplies variable values.
    ///
    /// # Errors
    /// [`DiceError::Unbounded`] for unlimited exploding dice (`3d6!`; use a
    /// limit such as `3d6!5`), [`DiceError::UnknownVariable`] for a missing
    /// variable, and [`DiceError::Overflow`] / [`DiceError::TooWide`] when the
    /// exact weights or outcome range get too large.
    pub fn dist(&self, vars: &dyn Fn(&str) -> Option<i64>) -> Result<Dist, DiceError> {
        let mut constant = 0i128;
        let mut dice: Option<Dist> = None;
        for term in &self.terms {
            let value = match &term.atom {
                Atom::Dice {
                    count,
                    die,
                    explode,
                } => {
                    let one = match *explode {
                        Explode::Never => Dist::die(die.sides()),
                        Explode::AtMost(k) => Dist::exploding(die.sides(), k)?,
                        Explode::Unlimited => return Err(DiceError::Unbounded),
                    };
                    let mut d = one.sum_iid(*count)?;
                    if term.negative {
                        d = d.negate();
                    }
                    dice = Some(match dice {
                        None => d,
                        Some(acc) => acc.convolve(&d)?,
                    });
                    continue;
                }
                Atom::Const(n) => *n,
                Atom::Var(name) => lookup(vars, name)?,
            };
            constant += if term.negative {
                -i128::from(value)
            } else {
                i128::from(value)
            };
        }
        let constant = i64::try_from(constant).map_err(|_| DiceError::Overflow)?;
        match dice {
            None => Ok(Dist::constant(constant)),
            Some(d) => d.checked_shift(constant),
        }
    }
}

fn lookup(vars: &dyn Fn(&str) -> Option<i64>, name: &str) -> Result<i64, DiceError> {
    vars(name).ok_or_else(|| DiceError::UnknownVariable(name.to_owned()))
}

impl FromStr for DiceExpr {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<DiceExpr, ParseError> {
        DiceExpr::parse(s)
    }
}

impl fmt::Display for DiceExpr {
    /// Canonical form: no spaces, explicit dice count, lower-case `d`, e.g. `1d20+str-2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, term) in self.terms.iter().enumerate() {
            if term.negative {
                f.write_str("-")?;
            } else if i > 0 {
                f.write_str("+")?;
            }
            match &term.atom {
                Atom::Dice {
                    count,
                    die,
                    explode,
                } => {
                    write!(f, "{count}d{}", die.sides())?;
                    match explode {
                        Explode::Never => {}
                        Explode::Unlimited => f.write_str("!")?,
                        Explode::AtMost(k) => write!(f, "!{k}")?,
                    }
                }
                Atom::Const(n) => write!(f, "{n}")?,
                Atom::Var(name) => f.write_str(name)?,
            }
        }
        Ok(())
    }
}

struct Parser<'a> {
    input: &'a str,
    chars: Vec<char>,
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, index: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            input: self.input.to_owned(),
            column: index + 1,
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn expr(mut self) -> Result<DiceExpr, ParseError> {
        self.skip_whitespace();
        if self.peek().is_none() {
            return Err(self.error(0, "empty expression"));
        }
        let mut terms = Vec::new();
        let mut operator = None;
        if let Some(c @ ('+' | '-')) = self.peek() {
            operator = Some(c);
            self.pos += 1;
        }
        loop {
            self.skip_whitespace();
            terms.push(Term {
                negative: operator == Some('-'),
                atom: self.atom(operator)?,
            });
            self.skip_whitespace();
            match self.peek() {
                None => return Ok(DiceExpr { terms }),
                Some(c @ ('+' | '-')) => {
                    operator = Some(c);
                    self.pos += 1;
                }
                Some(c) => return Err(self.error(self.pos, format!("unexpected character {c:?}"))),
            }
        }
    }

    /// Reads a run of ASCII digits as a number at most `max`; `None` if there are no digits.
    fn number(&mut self, max: u64, too_large: &str) -> Result<Option<u64>, ParseError> {
        let start = self.pos;
        let mut value: Option<u64> = Some(0);
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            value = value
                .and_then(|v| v.checked_mul(10))
                .and_then(|v| v.checked_add(u64::from(d)));
            self.pos += 1;
        }
        if self.pos == start {
            return Ok(None);
        }
        match value {
            Some(v) if v <= max => Ok(Some(v)),
            _ => Err(self.error(start, too_large)),
        }
    }

    fn atom(&mut self, operator: Option<char>) -> Result<Atom, ParseError> {
        let start = self.pos;
        let next = self.chars.get(self.pos + 1).copied();
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                let n = self
                    .number(i64::MAX as u64, "number too large")?
                    .expect("starts with a digit");
                if matches!(self.peek(), Some('d' | 'D')) {
                    if n == 0 {
                        return Err(self.error(start, "the number of dice must be at least 1"));
                    }
                    if n > MAX_COUNT {
                        return Err(
                            self.error(start, format!("too many dice (at most {MAX_COUNT})"))
                        );
                    }
                    self.dice(n as u32)
                } else {
                    Ok(Atom::Const(n as i64))
                }
            }
            Some('d' | 'D') if !next.is_some_and(|c| c.is_ascii_alphabetic() || c == '_') => {
                self.dice(1)
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    self.pos += 1;
                }
                let name: String = self.chars[start..self.pos].iter().collect();
                Ok(Atom::Var(name.to_ascii_lowercase()))
            }
            found => {
                let what = "expected a dice term, number or variable";
                let message = match (operator, found) {
                    (Some(op), None) => format!("{what} after {op:?}"),
                    (Some(op), Some(c)) => format!("{what} after {op:?}, found {c:?}"),
                    (None, Some(c)) => format!("unexpected character {c:?}: {what}"),
                    (None, None) => "empty expression".to_owned(),
                };
                Err(self.error(start, message))
            }
        }
    }

    /// Parses `d sides ['!' [limit]]` with the cursor on the `d`.
    fn dice(&mut self, count: u32) -> Result<Atom, ParseError> {
        self.pos += 1; // the 'd'
        let sides_at = self.pos;
        let sides = self
            .number(MAX_SIDES, &format!("too many sides (at most {MAX_SIDES})"))?
            .ok_or_else(|| self.error(sides_at, "expected the number of sides after 'd'"))?;
        if sides == 0 {
            return Err(self.error(sides_at, "a die must have at least 1 side"));
        }
        let sides = sides as u32;
        let mut explode = Explode::Never;
        if self.peek() == Some('!') {
            let bang_at = self.pos;
            self.pos += 1;
            let limit_at = self.pos;
            let limit = self.number(
                MAX_EXPLOSION_LIMIT,
                &format!("explosion limit too large (at most {MAX_EXPLOSION_LIMIT})"),
            )?;
            explode = match limit {
                Some(0) => {
                    return Err(self.error(limit_at, "the explosion limit must be at least 1"));
                }
                Some(k) => Explode::AtMost(k as u32),
                None if sides == 1 => {
                    return Err(self.error(
                        bang_at,
                        "a 1-sided die cannot explode without a limit (write e.g. '1d1!3')",
                    ));
                }
                None => Explode::Unlimited,
            };
        }
        Ok(Atom::Dice {
            count,
            die: Die::new(sides),
            explode,
        })
    }
}

#[cfg(test)]
mod tests;
