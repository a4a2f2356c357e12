//! Job control: one run per page. Starting a page's job cancels the page's previous one (its
//! flag is set; the engine stops at its next check and a job that has not started computing
//! never does). At most [`crate::Limits::workers`] jobs compute at once; the rest wait for a
//! worker, and a waiting job that is cancelled leaves without computing.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use crate::{Charts, ExactRow};

/// Most pages with a job remembered; the oldest is cancelled and forgotten beyond it.
pub const MAX_PAGES: usize = 256;

/// What a job has published so far (the page polls it).
#[derive(Clone, Debug, Default, Serialize)]
pub struct JobState {
    /// The job's number.
    pub job: u64,
    /// Grows with every change of this state (the page waits for it to move).
    pub version: u64,
    /// Trials of each stage (a first quick one, 20k, 200k, the file's).
    pub stages: Vec<u64>,
    /// Stages finished.
    pub finished: usize,
    /// The latest finished stage's run document.
    pub result: Option<Value>,
    /// The latest finished stage's A/B comparison document, when there is a B column.
    pub ab: Option<Value>,
    /// Milliseconds from the job's start to the end of each finished stage.
    pub ms: Vec<u64>,
    /// The exact answers found so far, in matchup order.
    pub exact: Vec<ExactRow>,
    /// Every matchup the ruleset solves has its exact answer (the others have none).
    pub exact_done: bool,
    /// Milliseconds from the job's start to the last exact answer.
    pub exact_ms: Option<u64>,
    /// No more stages will come (finished, cancelled or failed).
    pub done: bool,
    /// The job was cancelled by a newer one.
    pub cancelled: bool,
    /// Why the job failed.
    pub error: Option<String>,
}

/// One job, as its worker sees it.
pub struct Job {
    /// The job's number.
    pub id: u64,
    cancel: Arc<AtomicBool>,
    state: Arc<Mutex<JobState>>,
    charts: Arc<Mutex<Option<Arc<dyn Charts>>>>,
    gate: Arc<Gate>,
    started: Instant,
}

impl Job {
    /// The cancel flag the engine checks.
    pub fn flag(&self) -> &Arc<AtomicBool> {
        &self.cancel
    }

    /// Whether a newer job replaced this one.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Waits for a worker; `None` when the job was cancelled while waiting.
    pub fn permit(&self) -> Option<Permit<'_>> {
        self.gate
            .acquire(&self.cancel)
            .map(|()| Permit { gate: &self.gate })
    }

    /// Milliseconds since the job started.
    fn ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Publishes a finished stage and what draws its charts.
    pub fn stage(&self, result: Value, ab: Option<Value>, charts: Arc<dyn Charts>) {
        let ms = self.ms();
        *lock(&self.charts) = Some(charts);
        let mut s = lock(&self.state);
        s.finished += 1;
        s.result = Some(result);
        s.ab = ab;
        s.ms.push(ms);
        s.version += 1;
    }

    /// Publishes one matchup's exact answer.
    pub fn exact(&self, row: ExactRow) {
        let ms = self.ms();
        let mut s = lock(&self.state);
        s.exact.push(row);
        s.exact_ms = Some(ms);
        s.version += 1;
    }

    /// Marks the exact answers complete.
    pub fn exact_done(&self) {
        let mut s = lock(&self.state);
        s.exact_done = true;
        s.version += 1;
    }

    /// Marks the job done (with an error, or cancelled when its flag is set).
    pub fn finish(&self, error: Option<String>) {
        let mut s = lock(&self.state);
        s.cancelled = self.cancelled();
        s.error = error;
        s.done = true;
        s.version += 1;
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        // A worker that panicked or returned early still leaves the job done.
        let mut s = lock(&self.state);
        if !s.done {
            s.cancelled = self.cancelled();
            s.done = true;
            s.version += 1;
        }
    }
}

/// A worker slot, given back on drop.
pub struct Permit<'a> {
    gate: &'a Gate,
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        *lock(&self.gate.busy) -= 1;
        self.gate.freed.notify_all();
    }
}

/// Counts busy workers.
struct Gate {
    busy: Mutex<usize>,
    freed: Condvar,
    max: usize,
}

impl Gate {
    fn acquire(&self, cancel: &AtomicBool) -> Option<()> {
        let mut busy = lock(&self.busy);
        loop {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            if *busy < self.max {
                *busy += 1;
                return Some(());
            }
            // Woken when a worker is freed; the timeout re-checks the cancel flag.
            busy = self
                .freed
                .wait_timeout(busy, Duration::from_millis(50))
                .map_or_else(|e| e.into_inner().0, |(g, _)| g);
        }
    }
}

struct Slot {
    cancel: Arc<AtomicBool>,
    state: Arc<Mutex<JobState>>,
    charts: Arc<Mutex<Option<Arc<dyn Charts>>>>,
    touched: Instant,
}

/// Every page's latest job.
pub struct Jobs {
    pages: Mutex<HashMap<String, Slot>>,
    gate: Arc<Gate>,
    next: AtomicU64,
}

impl Jobs {
    /// No jobs; at most `workers` computing at once.
    pub fn new(workers: usize) -> Jobs {
        Jobs {
            pages: Mutex::new(HashMap::new()),
            gate: Arc::new(Gate {
                busy: Mutex::new(0),
                freed: Condvar::new(),
                max: workers.max(1),
            }),
            next: AtomicU64::new(1),
        }
    }

    /// Starts `page`'s new job with these stages, cancelling its previous one.
    pub fn start(&self, page: &str, stages: Vec<u64>) -> Job {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let cancel = Arc::new(AtomicBool::new(false));
        let state = Arc::new(Mutex::new(JobState {
            job: id,
            stages,
            ..JobState::default()
        }));
        let charts = Arc::new(Mutex::new(None));
        let mut pages = lock(&self.pages);
        if let Some(old) = pages.insert(
            page.to_string(),
            Slot {
                cancel: cancel.clone(),
                state: state.clone(),
                charts: charts.clone(),
                touched: Instant::now(),
            },
        ) {
            old.cancel.store(true, Ordering::Relaxed);
        }
        if pages.len() > MAX_PAGES
            && let Some(oldest) = pages
                .iter()
                .min_by_key(|(_, s)| s.touched)
                .map(|(k, _)| k.clone())
            && let Some(s) = pages.remove(&oldest)
        {
            s.cancel.store(true, Ordering::Relaxed);
        }
        Job {
            id,
            cancel,
            state,
            charts,
            gate: self.gate.clone(),
            started: Instant::now(),
        }
    }

    /// Cancels `page`'s job, if any.
    pub fn cancel(&self, page: &str) {
        if let Some(s) = lock(&self.pages).get(page) {
            s.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// What `page`'s job `job` has published (`None` when it is not the page's latest).
    pub fn state(&self, page: &str, job: u64) -> Option<JobState> {
        let mut pages = lock(&self.pages);
        let slot = pages.get_mut(page)?;
        slot.touched = Instant::now();
        let s = lock(&slot.state).clone();
        (s.job == job).then_some(s)
    }

    /// What draws the charts of `page`'s job `job`'s latest stage (`None` before its first
    /// stage or when it is not the page's latest job).
    pub fn charts(&self, page: &str, job: u64) -> Option<Arc<dyn Charts>> {
        let pages = lock(&self.pages);
        let slot = pages.get(page)?;
        if lock(&slot.state).job != job {
            return None;
        }
        lock(&slot.charts).clone()
    }

    /// Workers computing now.
    pub fn busy(&self) -> usize {
        *lock(&self.gate.busy)
    }

    /// Cancels every job (at shutdown).
    pub fn cancel_all(&self) {
        for s in lock(&self.pages).values() {
            s.cancel.store(true, Ordering::Relaxed);
        }
    }
}

/// Locks, taking the data of a poisoned lock (a panicking worker leaves plain data behind).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_job_cancels_the_page_s_previous_one() {
        let jobs = Jobs::new(1);
        let a = jobs.start("p", vec![10]);
        let b = jobs.start("p", vec![10]);
        let other = jobs.start("q", vec![10]);
        assert!(a.cancelled());
        assert!(!b.cancelled() && !other.cancelled());
        assert!(jobs.state("p", a.id).is_none());
        assert!(jobs.charts("p", b.id).is_none());
        b.stage(serde_json::json!(1), None, Arc::new(crate::NoCharts));
        b.exact(ExactRow::default());
        b.exact_done();
        b.finish(None);
        let s = jobs.state("p", b.id).unwrap();
        assert_eq!((s.finished, s.done, s.cancelled), (1, true, false));
        assert_eq!((s.exact.len(), s.exact_done, s.version), (1, true, 4));
        assert!(jobs.charts("p", b.id).is_some() && jobs.charts("p", a.id).is_none());
    }

    #[test]
    fn a_cancelled_job_waiting_for_a_worker_leaves() {
        let jobs = Jobs::new(1);
        let a = jobs.start("p", vec![]);
        let permit = a.permit().unwrap();
        assert_eq!(jobs.busy(), 1);
        let b = jobs.start("q", vec![]);
        let waiter = std::thread::spawn(move || b.permit().is_none());
        std::thread::sleep(Duration::from_millis(60));
        jobs.cancel("q");
        assert!(waiter.join().unwrap());
        drop(permit);
        assert_eq!(jobs.busy(), 0);
    }
}
