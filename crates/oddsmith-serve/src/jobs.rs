//! Job control: one run per page. Starting a page's job cancels the page's previous one (its
//! flag is set; the engine stops at its next check and a job that has not started computing
//! never does). At most [`crate::Limits::workers`] jobs compute at once; the rest wait for a
//! worker in the order they came, and a waiting job that is cancelled leaves without
//! computing. A page holds at most one worker (it has one job), and a job whose page stopped
//! asking for it ([`Jobs::reap`]: closed, asleep, gone) is cancelled, so abandoned pages
//! never keep the workers from the pages in use.

use std::collections::{HashMap, VecDeque};
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
    /// The readings study ([`crate::Engine::readings`]), computed in the background after the
    /// first stage; `{"error": …}` when it failed. `None` until it is in (or without one).
    pub readings: Option<Value>,
    /// The readings study is finished (its answer is in `readings`, or there is none).
    pub readings_done: bool,
    /// No more stages will come (finished, cancelled or failed).
    pub done: bool,
    /// The job was cancelled (by a newer one, or because its page stopped following it).
    pub cancelled: bool,
    /// The job was cancelled because its page stopped following it (a page that sees this
    /// was asleep: it starts its preview again).
    pub abandoned: bool,
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

    /// Publishes the readings study (`None`: the engine has none for this text).
    pub fn readings(&self, readings: Option<Value>) {
        let mut s = lock(&self.state);
        s.readings = readings;
        s.readings_done = true;
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
        lock(&self.gate.state).busy -= 1;
        self.gate.freed.notify_all();
    }
}

/// Busy workers and the line of jobs waiting for one.
#[derive(Default)]
struct GateState {
    busy: usize,
    /// Tickets of the waiting jobs, first come first.
    line: VecDeque<u64>,
    next: u64,
}

/// Counts busy workers and lets waiting jobs in, first come first served.
struct Gate {
    state: Mutex<GateState>,
    freed: Condvar,
    max: usize,
}

impl Gate {
    fn acquire(&self, cancel: &AtomicBool) -> Option<()> {
        let mut g = lock(&self.state);
        let ticket = g.next;
        g.next += 1;
        g.line.push_back(ticket);
        loop {
            if cancel.load(Ordering::Relaxed) {
                g.line.retain(|&t| t != ticket);
                // The next in line may be free to go now.
                self.freed.notify_all();
                return None;
            }
            if g.busy < self.max && g.line.front() == Some(&ticket) {
                g.line.pop_front();
                g.busy += 1;
                self.freed.notify_all();
                return Some(());
            }
            // Woken when a worker is freed or the line moves; the timeout re-checks the
            // cancel flag.
            g = self
                .freed
                .wait_timeout(g, Duration::from_millis(50))
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
                state: Mutex::new(GateState::default()),
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

    /// Cancels every unfinished job whose page has not asked for it (polled its state or its
    /// charts) for `idle`; returns how many it cancelled. The server calls this a few times a
    /// second.
    pub fn reap(&self, idle: Duration) -> usize {
        let pages = lock(&self.pages);
        let mut n = 0;
        for slot in pages.values() {
            if slot.touched.elapsed() < idle || slot.cancel.load(Ordering::Relaxed) {
                continue;
            }
            let mut st = lock(&slot.state);
            if st.done {
                continue;
            }
            slot.cancel.store(true, Ordering::Relaxed);
            st.abandoned = true;
            st.version += 1;
            n += 1;
        }
        n
    }

    /// Waits for a worker for work that is not a page's preview (a report), in the same line
    /// as the jobs; `None` when `cancel` is raised while waiting.
    pub fn worker<'a>(&'a self, cancel: &AtomicBool) -> Option<Permit<'a>> {
        self.gate
            .acquire(cancel)
            .map(|()| Permit { gate: &self.gate })
    }

    /// What `page`'s job `job` has published (`None` when it is not the page's latest).
    pub fn state(&self, page: &str, job: u64) -> Option<JobState> {
        self.state_unless(page, job, |_| false)?
    }

    /// What `page`'s job `job` has published, unless `same(state)` says the page has seen it
    /// (`Some(None)`: a long poll waits on without copying the state, whose run document can
    /// be large); `None` when it is not the page's latest job.
    pub fn state_unless(
        &self,
        page: &str,
        job: u64,
        same: impl FnOnce(&JobState) -> bool,
    ) -> Option<Option<JobState>> {
        let mut pages = lock(&self.pages);
        let slot = pages.get_mut(page)?;
        slot.touched = Instant::now();
        let s = lock(&slot.state);
        if s.job != job {
            return None;
        }
        Some((!same(&s)).then(|| s.clone()))
    }

    /// What draws the charts of `page`'s job `job`'s latest stage (`None` before its first
    /// stage or when it is not the page's latest job).
    pub fn charts(&self, page: &str, job: u64) -> Option<Arc<dyn Charts>> {
        let mut pages = lock(&self.pages);
        let slot = pages.get_mut(page)?;
        slot.touched = Instant::now();
        if lock(&slot.state).job != job {
            return None;
        }
        lock(&slot.charts).clone()
    }

    /// Workers computing now.
    pub fn busy(&self) -> usize {
        lock(&self.gate.state).busy
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
        // A long poll that has seen this version gets no copy; a newer version, or another
        // job's number, is told apart.
        let v = s.version;
        assert_eq!(
            jobs.state_unless("p", b.id, |s| s.version == v)
                .map(|s| s.is_none()),
            Some(true)
        );
        assert_eq!(
            jobs.state_unless("p", b.id, |s| s.version == v - 1)
                .map(|s| s.map(|s| s.version)),
            Some(Some(v))
        );
        assert!(jobs.state_unless("p", a.id, |_| true).is_none());
    }

    #[test]
    fn waiting_jobs_get_workers_in_the_order_they_came() {
        let jobs = Arc::new(Jobs::new(1));
        let first = jobs.start("p", vec![]);
        let permit = first.permit().unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut waiters = Vec::new();
        for i in 0..4 {
            let job = jobs.start(&format!("q{i}"), vec![]);
            let order = order.clone();
            waiters.push(std::thread::spawn(move || {
                let _p = job.permit().unwrap();
                lock(&order).push(i);
                std::thread::sleep(Duration::from_millis(5));
            }));
            // Each in line before the next asks.
            std::thread::sleep(Duration::from_millis(30));
        }
        drop(permit);
        for w in waiters {
            w.join().unwrap();
        }
        assert_eq!(*lock(&order), vec![0, 1, 2, 3]);
    }

    #[test]
    fn a_job_its_page_stopped_following_is_cancelled() {
        let jobs = Jobs::new(1);
        let a = jobs.start("p", vec![10]);
        let b = jobs.start("q", vec![10]);
        std::thread::sleep(Duration::from_millis(120));
        // q's page asks for its job; p's does not.
        assert!(jobs.state("q", b.id).is_some());
        assert_eq!(jobs.reap(Duration::from_millis(100)), 1);
        assert!(a.cancelled() && !b.cancelled());
        let s = jobs.state("p", a.id).unwrap();
        assert!(s.abandoned, "{s:?}");
        // A finished job is left alone.
        b.finish(None);
        std::thread::sleep(Duration::from_millis(120));
        assert_eq!(jobs.reap(Duration::from_millis(100)), 0);
        assert!(!jobs.state("q", b.id).unwrap().cancelled);
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
