//! The one folder the explorer may read and write: the scenario's own. Every path from a
//! request is a relative path inside it, checked by name (no `..`, no root, no drive) and again
//! after canonicalising (a symbolic link out of the folder is refused too).

use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

/// A refused or failed file operation, as text for the page.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FileError {
    /// The path leaves the folder (or is not a plain relative path).
    #[error("{0}: outside the scenario's folder")]
    Outside(String),
    /// The file changed on disk since the page loaded it.
    #[error("{0} changed on disk since it was loaded; save again to overwrite it")]
    Changed(String),
    /// Anything else.
    #[error("{0}")]
    Io(String),
}

/// The scenario's folder (canonical).
#[derive(Clone, Debug)]
pub struct Folder {
    root: PathBuf,
}

impl Folder {
    /// The folder `dir` (it must exist).
    pub fn new(dir: &Path) -> Result<Folder, FileError> {
        let root = dir
            .canonicalize()
            .map_err(|e| FileError::Io(format!("{}: {e}", dir.display())))?;
        Ok(Folder { root })
    }

    /// The folder's path.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `rel` inside the folder, refused when it is absolute, has `..` or leads outside once
    /// links are followed. The file itself need not exist (its parent must).
    pub fn resolve(&self, rel: &str) -> Result<PathBuf, FileError> {
        let outside = || FileError::Outside(rel.to_string());
        let p = Path::new(rel);
        if rel.is_empty()
            || rel.contains('\\')
            || rel.contains('\0')
            || p.components().any(|c| !matches!(c, Component::Normal(_)))
        {
            return Err(outside());
        }
        let full = self.root.join(p);
        // The deepest existing ancestor, canonicalised, must stay inside.
        let mut existing = full.as_path();
        while !existing.exists() {
            existing = existing.parent().ok_or_else(outside)?;
        }
        let canon = existing.canonicalize().map_err(|_| outside())?;
        if !canon.starts_with(&self.root) {
            return Err(outside());
        }
        let rest = full.strip_prefix(existing).map_err(|_| outside())?;
        Ok(if rest.as_os_str().is_empty() {
            canon
        } else {
            canon.join(rest)
        })
    }

    /// Reads `rel` (as text) and its modification time.
    pub fn read(&self, rel: &str, max: usize) -> Result<(String, Option<SystemTime>), FileError> {
        let p = self.resolve(rel)?;
        let meta = std::fs::metadata(&p).map_err(|e| FileError::Io(format!("{rel}: {e}")))?;
        if meta.len() > max as u64 {
            return Err(FileError::Io(format!("{rel}: larger than {max} bytes")));
        }
        let text = std::fs::read_to_string(&p).map_err(|e| FileError::Io(format!("{rel}: {e}")))?;
        Ok((text, meta.modified().ok()))
    }

    /// Writes `text` to `rel`, refusing when the file's modification time is no longer
    /// `loaded` (it changed on disk since the page read it) unless `force`; returns the new
    /// modification time.
    pub fn save(
        &self,
        rel: &str,
        text: &str,
        loaded: Option<SystemTime>,
        force: bool,
    ) -> Result<Option<SystemTime>, FileError> {
        let p = self.resolve(rel)?;
        let now = std::fs::metadata(&p).ok().and_then(|m| m.modified().ok());
        if !force && now.is_some() && micros(now) != micros(loaded) {
            return Err(FileError::Changed(rel.to_string()));
        }
        let tmp = p.with_extension("toml.oddsmith-save");
        std::fs::write(&tmp, text).map_err(|e| FileError::Io(format!("{rel}: {e}")))?;
        std::fs::rename(&tmp, &p).map_err(|e| FileError::Io(format!("{rel}: {e}")))?;
        Ok(std::fs::metadata(&p).ok().and_then(|m| m.modified().ok()))
    }
}

/// A modification time as microseconds since 1970 (what the page keeps and sends back: exact
/// in a JavaScript number, and fine enough that a save right after a load is told apart).
pub fn micros(t: Option<SystemTime>) -> Option<u128> {
    t.and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
        .map(|d| d.as_micros())
}

/// The time of [`micros`] back.
pub fn from_micros(us: Option<u128>) -> Option<SystemTime> {
    us.map(|m| SystemTime::UNIX_EPOCH + std::time::Duration::from_micros(m as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "oddsmith-serve-files-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("sub")).unwrap();
        d
    }

    #[test]
    fn traversal_is_refused() {
        let d = temp("trav");
        let f = Folder::new(&d).unwrap();
        for bad in [
            "../x.toml",
            "/etc/passwd",
            "sub/../../x",
            "",
            "a\\..\\b",
            "./x",
        ] {
            assert!(
                matches!(f.resolve(bad), Err(FileError::Outside(_))),
                "{bad}"
            );
        }
        assert_eq!(
            f.resolve("sub/a.toml").unwrap(),
            f.root().join("sub/a.toml")
        );
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/tmp", d.join("out")).unwrap();
            assert!(matches!(f.resolve("out/x"), Err(FileError::Outside(_))));
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn save_refuses_a_file_changed_on_disk() {
        let d = temp("save");
        let f = Folder::new(&d).unwrap();
        std::fs::write(d.join("s.toml"), "a = 1\n").unwrap();
        let (_, t) = f.read("s.toml", 1000).unwrap();
        let t2 = f
            .save("s.toml", "a = 2\n", from_micros(micros(t)), false)
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(d.join("s.toml"), "a = 3\n").unwrap();
        assert!(matches!(
            f.save("s.toml", "a = 4\n", t2, false),
            Err(FileError::Changed(_))
        ));
        assert_eq!(
            std::fs::read_to_string(d.join("s.toml")).unwrap(),
            "a = 3\n"
        );
        f.save("s.toml", "a = 4\n", t2, true).unwrap();
        assert_eq!(
            std::fs::read_to_string(d.join("s.toml")).unwrap(),
            "a = 4\n"
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}
