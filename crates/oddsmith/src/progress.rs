//! A progress bar that appears only on runs longer than about a second, on a terminal.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[cfg(feature = "native")]
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Progress of one matchup.
#[cfg(feature = "native")]
pub struct Bar {
    bar: ProgressBar,
    start: Instant,
    shown: AtomicBool,
}

const DELAY: Duration = Duration::from_secs(1);

#[cfg(feature = "native")]
impl Bar {
    /// A hidden bar for `total` trials (a cap, when running to a precision).
    pub fn new(name: &str, total: u64, open_ended: bool) -> Bar {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        let template = if open_ended {
            "{prefix} {spinner} {human_pos} duels ({per_sec}), running to precision, {elapsed}"
        } else {
            "{prefix} [{bar:30}] {percent:>3}% {human_pos}/{human_len} duels ({per_sec}, eta {eta})"
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_prefix(name.to_string());
        Bar {
            bar,
            start: Instant::now(),
            shown: AtomicBool::new(false),
        }
    }

    /// Adds finished trials; shows the bar once the run has taken more than a second.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
        if !self.shown.load(Ordering::Relaxed)
            && self.start.elapsed() > DELAY
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Without `native` (the browser build) there is no terminal and no clock: a bar that does
/// nothing.
#[cfg(not(feature = "native"))]
pub struct Bar;

#[cfg(not(feature = "native"))]
impl Bar {
    /// A bar that is never shown.
    pub fn new(_name: &str, _total: u64, _open_ended: bool) -> Bar {
        Bar
    }
    /// Nothing to count.
    pub fn inc(&self, _n: u64) {}
    /// Nothing to clear.
    pub fn finish(&self) {}
}
