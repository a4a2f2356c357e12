//! The one folder the explorer may read and write: the scenario's own. Every path from a
//! request is a relative path inside it, checked by name (no `..`, no root, no drive) and again
//! after canonicalising (a symbolic link out of the folder is refused too). A save writes a
//! temporary file created exclusively under a random name and renames it into place, so a
//! link planted beside the scenario is never followed.

use std::hash::{DefaultHasher, Hasher};
use std::path::{Component, Path, PathBuf};

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

    /// Reads `rel` (as text) and the [`version`] of its contents.
    pub fn read(&self, rel: &str, max: usize) -> Result<(String, String), FileError> {
        let p = self.resolve(rel)?;
        let meta = std::fs::metadata(&p).map_err(|e| FileError::Io(format!("{rel}: {e}")))?;
        if meta.len() > max as u64 {
            return Err(FileError::Io(format!("{rel}: larger than {max} bytes")));
        }
        let text = std::fs::read_to_string(&p).map_err(|e| FileError::Io(format!("{rel}: {e}")))?;
        let v = version(text.as_bytes());
        Ok((text, v))
    }

    /// Writes `text` to `rel`, refusing when the file exists and its contents are no longer the
    /// `loaded` version (it changed on disk since the page read it, or the page never read it)
    /// unless `force`; returns the new contents' version.
    pub fn save(
        &self,
        rel: &str,
        text: &str,
        loaded: Option<&str>,
        force: bool,
    ) -> Result<String, FileError> {
        let p = self.resolve(rel)?;
        if !force {
            match std::fs::read(&p) {
                Ok(now) if Some(version(&now).as_str()) != loaded => {
                    return Err(FileError::Changed(rel.to_string()));
                }
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(FileError::Io(format!("{rel}: {e}"))),
            }
        }
        write_atomically(&p, text.as_bytes()).map_err(|e| FileError::Io(format!("{rel}: {e}")))?;
        Ok(version(text.as_bytes()))
    }
}

/// Writes `bytes` to `path` whole or not at all: into a new temporary file beside it, created
/// exclusively under a random name (`.<name>.<random>.oddsmith-save`, so a link planted at a
/// predictable name is never followed), synced, then renamed over `path`. A rename replaces a
/// link at `path` itself and never writes through it. The file keeps the permissions of the
/// one it replaces (a new file: a plain new file's); the temporary file is removed on failure.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().ok_or(std::io::ErrorKind::InvalidInput)?;
    let name = path
        .file_name()
        .ok_or(std::io::ErrorKind::InvalidInput)?
        .to_string_lossy();
    let mut b = tempfile::Builder::new();
    let prefix = format!(".{name}.");
    b.prefix(&prefix).suffix(".oddsmith-save");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // The umask applies, as to any new file (tempfile's default is owner-only).
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = b.tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    if let Ok(m) = std::fs::symlink_metadata(path)
        && m.is_file()
    {
        tmp.as_file().set_permissions(m.permissions())?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// The version of a file's contents the page keeps and sends back with a save: a hash of the
/// bytes, as hex. A modification time would not do: the kernel stamps files with a coarse
/// clock, so a write within the same tick as a read leaves the time unchanged.
pub fn version(bytes: &[u8]) -> String {
    let mut h = DefaultHasher::new();
    h.write(bytes);
    format!("{:016x}-{}", h.finish(), bytes.len())
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
        let (_, v) = f.read("s.toml", 1000).unwrap();
        let v2 = f.save("s.toml", "a = 2\n", Some(&v), false).unwrap();
        // Changed on disk straight away (no sleep: within the clock's tick, where a
        // modification time would not have moved).
        std::fs::write(d.join("s.toml"), "a = 3\n").unwrap();
        for stale in [Some(v2.as_str()), Some(v.as_str()), None] {
            assert!(
                matches!(
                    f.save("s.toml", "a = 4\n", stale, false),
                    Err(FileError::Changed(_))
                ),
                "{stale:?}"
            );
        }
        assert_eq!(
            std::fs::read_to_string(d.join("s.toml")).unwrap(),
            "a = 3\n"
        );
        let v4 = f.save("s.toml", "a = 4\n", Some(&v2), true).unwrap();
        assert_eq!(
            std::fs::read_to_string(d.join("s.toml")).unwrap(),
            "a = 4\n"
        );
        // The version a save returns is the one a read gives, so the next save goes through.
        assert_eq!(f.read("s.toml", 1000).unwrap().1, v4);
        f.save("s.toml", "a = 5\n", Some(&v4), false).unwrap();
        // A new file needs no version.
        f.save("new.toml", "a = 1\n", None, false).unwrap();
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_link_is_never_followed() {
        let d = temp("link");
        let outside = d.with_extension("outside");
        let _ = std::fs::remove_dir_all(&outside);
        std::fs::create_dir_all(&outside).unwrap();
        let target = outside.join("victim");
        std::fs::write(&target, "precious\n").unwrap();
        let f = Folder::new(&d).unwrap();
        std::fs::write(d.join("evil.toml"), "a = 1\n").unwrap();
        // Links at the names an earlier version wrote its temporary file to, and at the
        // saved file's own name once it exists as a link.
        for name in [
            "evil.toml.oddsmith-save",
            "new.toml.oddsmith-save",
            ".evil.toml.oddsmith-save",
        ] {
            std::os::unix::fs::symlink(&target, d.join(name)).unwrap();
        }
        let (_, v) = f.read("evil.toml", 1000).unwrap();
        f.save("evil.toml", "a = 2\n", Some(&v), false).unwrap();
        f.save("new.toml", "b = 1\n", None, false).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious\n");
        assert_eq!(
            std::fs::read_to_string(d.join("evil.toml")).unwrap(),
            "a = 2\n"
        );
        assert_eq!(
            std::fs::read_to_string(d.join("new.toml")).unwrap(),
            "b = 1\n"
        );
        // Nothing new outside; no temporary file left inside.
        let outside_now: Vec<_> = std::fs::read_dir(&outside).unwrap().collect();
        assert_eq!(outside_now.len(), 1);
        let inside: Vec<String> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".oddsmith-save") && !n.contains("toml.oddsmith-save"))
            .collect();
        assert!(inside.is_empty(), "{inside:?}");
        // A saved file keeps the permissions of the one it replaced.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(d.join("evil.toml"), std::fs::Permissions::from_mode(0o640))
            .unwrap();
        let (_, v) = f.read("evil.toml", 1000).unwrap();
        f.save("evil.toml", "a = 3\n", Some(&v), false).unwrap();
        let mode = std::fs::metadata(d.join("evil.toml"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640);
        // A link at the file's own name, out of the folder: refused, the target untouched.
        std::os::unix::fs::symlink(&target, d.join("linked.toml")).unwrap();
        assert!(matches!(
            f.save("linked.toml", "x = 1\n", None, true),
            Err(FileError::Outside(_))
        ));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious\n");
        let _ = std::fs::remove_dir_all(&d);
        let _ = std::fs::remove_dir_all(&outside);
    }

    #[test]
    fn saves_within_one_clock_tick_are_told_apart() {
        let d = temp("tick");
        let f = Folder::new(&d).unwrap();
        std::fs::write(d.join("s.toml"), "a = 1\n").unwrap();
        for i in 0..200 {
            let (_, v) = f.read("s.toml", 1000).unwrap();
            let v2 = f
                .save("s.toml", &format!("a = {i}0\n"), Some(&v), false)
                .unwrap();
            // Another writer, at once: the page's version is stale.
            std::fs::write(d.join("s.toml"), format!("a = {i}1\n")).unwrap();
            assert!(matches!(
                f.save("s.toml", "x", Some(&v2), false),
                Err(FileError::Changed(_))
            ));
        }
        let _ = std::fs::remove_dir_all(&d);
    }
}
