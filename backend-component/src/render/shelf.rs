//! The machine's fonts, as far as the host grants them: directories preopened read only
//! under the names `/fonts/0`, `/fonts/1`, … (absolute, so no project path can resolve into one) (natively, for tests and benchmarks, the
//! directories [`grant`]ed to the calling thread).
//!
//! A text naming a family the project does not carry is drawn in the machine's face of
//! that family, and a character that face and the bundled one lack in a machine face that
//! has it (CJK above all), as a browser's font fallback would. The files are indexed on
//! first need from their `name` and `OS/2` tables alone; a face is read whole on first use
//! and kept for the life of the instance (one session), within [`MAX_LOADED_BYTES`].

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::{Arc, Mutex, OnceLock};

use crate::fs::ProjectFs;
use crate::render::font::{LazyFont, VectorFont};

/// Font files indexed at most, and directory levels walked: a font folder is shallow, and
/// a granted directory that is not one must not turn the first render into a disk scan.
const MAX_FILES: usize = 4_000;
const MAX_DEPTH: usize = 6;
/// File bytes kept at most (a CJK collection is about 20 MB).
pub const MAX_LOADED_BYTES: usize = 160 << 20;
/// Unread files read at most while looking for a face that has one character.
const MAX_READS_PER_SEARCH: usize = 2;

/// Families that browsers and fontconfig draw in a metric-compatible face when the
/// machine lacks them, so a label keeps its width.
const ALIASES: &[(&[&str], &[&str])] = &[
    (
        &["arial", "helvetica", "helvetica neue", "arial unicode ms"],
        &["liberation sans", "arimo"],
    ),
    (
        &["times new roman", "times"],
        &["liberation serif", "tinos"],
    ),
    (&["courier new", "courier"], &["liberation mono", "cousine"]),
];

/// How a family name was met.
#[derive(Clone)]
pub enum Found {
    /// The machine has the family itself.
    Exact(Arc<VectorFont>),
    /// A face with its metrics, under another name.
    Alias(Arc<VectorFont>),
}

/// One face of a font file, as its index knows it.
struct Entry {
    dir: usize,
    path: String,
    index: u32,
    /// Every family, typographic family and full name the `name` table gives, lower case.
    names: Vec<String>,
    /// The first family name, as the file spells it.
    family: String,
    weight: u16,
    italic: bool,
    /// OS/2 Unicode ranges (bits 0..=122); `None` when the face has no OS/2 table.
    ranges: Option<u128>,
}

impl Entry {
    /// Lower is better: upright, regular weight, proportional.
    fn rank(&self) -> (bool, u16, bool) {
        let mono = self.names.iter().any(|name| name.contains("mono"));
        (self.italic, self.weight.abs_diff(400), mono)
    }
}

/// The granted directories: their names (the preopens', or the paths natively), which
/// key the shelf, and access to each.
struct Dirs {
    key: Vec<String>,
    open: Vec<Box<dyn ProjectFs>>,
}

thread_local! {
    /// Found once per instance (per grant natively): a text asks for a face for each of
    /// its characters, and listing the preopens makes new WASI handles every time.
    static DIRS: RefCell<Option<Rc<Dirs>>> = const { RefCell::new(None) };
}

#[cfg(not(target_os = "wasi"))]
thread_local! {
    static GRANTED: RefCell<Vec<std::path::PathBuf>> = const { RefCell::new(Vec::new()) };
}

/// Natively: the font directories this thread's renders may use (none by default, so a
/// test's pictures do not depend on the machine unless it asks).
#[cfg(not(target_os = "wasi"))]
pub fn grant(dirs: Vec<std::path::PathBuf>) {
    GRANTED.with(|granted| *granted.borrow_mut() = dirs);
    DIRS.with(|known| *known.borrow_mut() = None);
}

#[cfg(not(target_os = "wasi"))]
fn find_dirs() -> Dirs {
    GRANTED.with(|granted| {
        let granted = granted.borrow();
        Dirs {
            key: granted
                .iter()
                .map(|dir| dir.display().to_string())
                .collect(),
            open: granted
                .iter()
                .map(|dir| Box::new(crate::fs::StdFs::new(dir)) as Box<dyn ProjectFs>)
                .collect(),
        }
    })
}

#[cfg(target_os = "wasi")]
fn find_dirs() -> Dirs {
    let (key, open) = crate::fs::ProjectDir::fonts()
        .into_iter()
        .map(|(name, dir)| (name, Box::new(dir) as Box<dyn ProjectFs>))
        .unzip();
    Dirs { key, open }
}

fn dirs() -> Rc<Dirs> {
    DIRS.with(|known| {
        known
            .borrow_mut()
            .get_or_insert_with(|| Rc::new(find_dirs()))
            .clone()
    })
}

/// What is known of one set of granted directories.
#[derive(Default)]
struct Shelf {
    entries: Vec<Entry>,
    /// Faces read, by entry; `None`: the file could not be read or parsed.
    loaded: HashMap<usize, Option<&'static Arc<VectorFont>>>,
    loaded_bytes: usize,
    /// The face that covers a character, once asked.
    covering: HashMap<char, Option<&'static Arc<VectorFont>>>,
}

/// The shelves, by their directories' names. Faces are leaked on purpose: an instance is
/// one session, and a face read once serves every render of it.
fn shelves() -> &'static Mutex<HashMap<Vec<String>, Shelf>> {
    static SHELVES: OnceLock<Mutex<HashMap<Vec<String>, Shelf>>> = OnceLock::new();
    SHELVES.get_or_init(Mutex::default)
}

fn with_shelf<T>(work: impl FnOnce(&mut Shelf, &Dirs) -> T) -> Option<T> {
    let dirs = dirs();
    if dirs.key.is_empty() {
        return None;
    }
    let mut shelves = shelves()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(shelf) = shelves.get_mut(&dirs.key) {
        return Some(work(shelf, &dirs));
    }
    let shelf = shelves.entry(dirs.key.clone()).or_insert_with(|| Shelf {
        entries: index(&dirs.open),
        ..Shelf::default()
    });
    Some(work(shelf, &dirs))
}

/// The machine's face of `family` (case-insensitive; a metric-compatible face for the
/// common Latin families); `None` when the machine has neither.
pub fn family(family: &str) -> Option<Found> {
    // A font field may list families, as CSS does: the first the machine has wins.
    let listed: Vec<&str> = family.split(',').collect();
    if listed.len() > 1 {
        let found: Vec<Found> = listed.iter().filter_map(|one| family_one(one)).collect();
        return found
            .iter()
            .find(|found| matches!(found, Found::Exact(_)))
            .or(found.first())
            .cloned();
    }
    family_one(family)
}

fn family_one(family: &str) -> Option<Found> {
    let wanted = family.trim().trim_matches(['"', '\'']).to_lowercase();
    if wanted.is_empty() {
        return None;
    }
    with_shelf(|shelf, dirs| {
        if let Some(face) = shelf.best(dirs, |entry| entry.names.contains(&wanted)) {
            return Some(Found::Exact(face.clone()));
        }
        let (_, aliases) = ALIASES
            .iter()
            .find(|(names, _)| names.contains(&wanted.as_str()))?;
        aliases.iter().find_map(|alias| {
            shelf
                .best(dirs, |entry| entry.names.iter().any(|name| name == alias))
                .map(|face| Found::Alias(face.clone()))
        })
    })
    .flatten()
}

/// The characters some font can draw: the bundled one, the project's own TTF/OTF files
/// (`project_fonts`, their bytes) and the machine's granted faces, as previews fall back.
pub struct Coverage {
    project: Vec<fontdue::Font>,
}

impl Coverage {
    pub fn new<'b>(project_fonts: impl Iterator<Item = &'b [u8]>) -> Coverage {
        Coverage {
            project: project_fonts.filter_map(super::font::parse_ttf).collect(),
        }
    }

    pub fn has(&self, ch: char) -> bool {
        super::font::bundled().is_some_and(|font| font.has_glyph(ch))
            || self.project.iter().any(|font| font.has_glyph(ch))
            || covering(ch).is_some()
    }
}

/// A machine face that has `ch`, for characters the text's own face and the bundled one
/// lack; Simplified Chinese faces first for Han characters (FairyGUI projects are mostly
/// Chinese; a browser decides by the page's language instead).
pub fn covering(ch: char) -> Option<&'static VectorFont> {
    with_shelf(|shelf, dirs| {
        if let Some(known) = shelf.covering.get(&ch) {
            return known.map(|face| &**face);
        }
        let found = shelf.find_covering(dirs, ch);
        shelf.covering.insert(ch, found);
        found.map(|face| &**face)
    })
    .flatten()
}

impl Shelf {
    /// The best-ranked face among the entries `wanted` accepts that loads.
    fn best(
        &mut self,
        dirs: &Dirs,
        wanted: impl Fn(&Entry) -> bool,
    ) -> Option<&'static Arc<VectorFont>> {
        let mut candidates: Vec<usize> = (0..self.entries.len())
            .filter(|&i| wanted(&self.entries[i]))
            .collect();
        candidates.sort_by_key(|&i| self.entries[i].rank());
        candidates.into_iter().find_map(|i| self.load(dirs, i))
    }

    /// Only faces whose OS/2 table claims the character's block are candidates, and only
    /// [`MAX_READS_PER_SEARCH`] unread files are read for one character: a character no
    /// face has must not read every font on the machine.
    fn find_covering(&mut self, dirs: &Dirs, ch: char) -> Option<&'static Arc<VectorFont>> {
        let bit = unicode_range_bit(ch)?;
        let cjk = (48..=68).contains(&bit);
        let mut candidates: Vec<usize> = (0..self.entries.len())
            .filter(|&i| {
                self.entries[i]
                    .ranges
                    .is_some_and(|ranges| ranges & (1u128 << bit) != 0)
            })
            .collect();
        candidates.sort_by_key(|&i| {
            let entry = &self.entries[i];
            let simplified = entry
                .names
                .iter()
                .any(|name| name.ends_with(" sc") || name.contains(" sc ") || name.contains("gb"));
            (cjk && !simplified, entry.rank(), entry.path.clone())
        });
        // Faces already read first: one CJK face serves a whole label.
        let (read, unread): (Vec<usize>, Vec<usize>) = candidates
            .into_iter()
            .partition(|i| self.loaded.get(i).is_some_and(Option::is_some));
        if let Some(face) = read
            .into_iter()
            .filter_map(|i| self.load(dirs, i))
            .find(|face| face.has_glyph(ch))
        {
            return Some(face);
        }
        let unread: Vec<usize> = unread
            .into_iter()
            .filter(|i| !self.loaded.contains_key(i))
            .take(MAX_READS_PER_SEARCH)
            .collect();
        unread
            .into_iter()
            .find_map(|i| self.load(dirs, i).filter(|face| face.has_glyph(ch)))
    }

    fn load(&mut self, dirs: &Dirs, i: usize) -> Option<&'static Arc<VectorFont>> {
        if let Some(known) = self.loaded.get(&i) {
            return *known;
        }
        let entry = &self.entries[i];
        let dir = &dirs.open[entry.dir];
        let face = dir
            .read(&entry.path)
            .ok()
            .filter(|bytes| self.loaded_bytes + bytes.len() <= MAX_LOADED_BYTES)
            // Parsed once before it is kept, so a broken file costs nothing after this.
            .filter(|bytes| ttf_parser::Face::parse(bytes, entry.index).is_ok())
            .and_then(|bytes| {
                let size = bytes.len();
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                let font = LazyFont::parse(bytes, entry.index, entry.family.clone())?;
                self.loaded_bytes += size;
                let face: &'static Arc<VectorFont> =
                    Box::leak(Box::new(Arc::new(VectorFont::Lazy(Box::new(font)))));
                Some(face)
            });
        self.loaded.insert(i, face);
        face
    }
}

/// Every face of every font file under the directories.
fn index(dirs: &[Box<dyn ProjectFs>]) -> Vec<Entry> {
    let mut files = Vec::new();
    for (d, dir) in dirs.iter().enumerate() {
        walk(dir.as_ref(), "", 0, &mut |path| files.push((d, path)));
    }
    files.truncate(MAX_FILES);
    let mut entries = Vec::new();
    for (d, path) in files {
        entries.extend(faces_of(dirs[d].as_ref(), d, &path));
    }
    entries
}

fn walk(dir: &dyn ProjectFs, at: &str, depth: usize, found: &mut dyn FnMut(String)) {
    let Ok(listing) = dir.read_dir(if at.is_empty() { "." } else { at }) else {
        return;
    };
    for entry in listing {
        let path = if at.is_empty() {
            entry.name.clone()
        } else {
            format!("{at}/{}", entry.name)
        };
        if entry.is_dir {
            if depth < MAX_DEPTH {
                walk(dir, &path, depth + 1, found);
            }
        } else {
            let lower = entry.name.to_lowercase();
            if [".ttf", ".otf", ".ttc", ".otc"]
                .iter()
                .any(|ext| lower.ends_with(ext))
            {
                found(path);
            }
        }
    }
}

fn be16(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// The faces of one file: each face's table directory, then its `name` and `OS/2` tables.
fn faces_of(dir: &dyn ProjectFs, d: usize, path: &str) -> Vec<Entry> {
    let Ok(head) = dir.read_range(path, 0, 12) else {
        return Vec::new();
    };
    let starts: Vec<u32> = if head.get(..4) == Some(b"ttcf") {
        let count = be32(&head, 8).unwrap_or(0).min(64);
        let Ok(offsets) = dir.read_range(path, 12, u64::from(count) * 4) else {
            return Vec::new();
        };
        (0..count as usize)
            .filter_map(|i| be32(&offsets, i * 4))
            .collect()
    } else {
        vec![0]
    };
    starts
        .iter()
        .enumerate()
        .filter_map(|(index, &start)| face_entry(dir, d, path, index as u32, start.into()))
        .collect()
}

fn face_entry(dir: &dyn ProjectFs, d: usize, path: &str, index: u32, start: u64) -> Option<Entry> {
    let header = dir.read_range(path, start, 12).ok()?;
    let tables = be16(&header, 4)?.min(512);
    let records = dir
        .read_range(path, start + 12, u64::from(tables) * 16)
        .ok()?;
    let table = |tag: &[u8; 4]| -> Option<Vec<u8>> {
        let at = (0..tables as usize).find(|i| records.get(i * 16..i * 16 + 4) == Some(tag))?;
        let offset = be32(&records, at * 16 + 8)?;
        let length = be32(&records, at * 16 + 12)?.min(1 << 20);
        dir.read_range(path, offset.into(), length.into()).ok()
    };
    let name_bytes = table(b"name")?;
    let names_table = ttf_parser::name::Table::parse(&name_bytes)?;
    let mut names = Vec::new();
    let mut family = String::new();
    for name in names_table.names {
        let id = name.name_id;
        let wanted = id == ttf_parser::name_id::FAMILY
            || id == ttf_parser::name_id::TYPOGRAPHIC_FAMILY
            || id == ttf_parser::name_id::FULL_NAME;
        if !wanted {
            continue;
        }
        let Some(text) = name.to_string() else {
            continue;
        };
        if family.is_empty() && id == ttf_parser::name_id::FAMILY {
            family = text.clone();
        }
        let lower = text.trim().to_lowercase();
        if !lower.is_empty() && !names.contains(&lower) {
            names.push(lower);
        }
    }
    if names.is_empty() {
        return None;
    }
    if family.is_empty() {
        family = names[0].clone();
    }
    let os2_bytes = table(b"OS/2");
    let os2 = os2_bytes.as_deref().and_then(ttf_parser::os2::Table::parse);
    let ranges = os2_bytes.as_deref().and_then(|bytes| {
        let word = |i: usize| be32(bytes, 42 + i * 4).map(u128::from);
        Some(word(0)? | word(1)? << 32 | word(2)? << 64 | word(3)? << 96)
    });
    Some(Entry {
        dir: d,
        path: path.to_owned(),
        index,
        names,
        family,
        weight: os2.map_or(400, |os2| os2.weight().to_number()),
        italic: os2.is_some_and(|os2| os2.style() != ttf_parser::Style::Normal),
        ranges,
    })
}

/// The OS/2 `ulUnicodeRange` bit of the character's block, for the blocks text is written
/// in; `None` for the rest (private use, emoji, controls), which no machine face is
/// searched for.
fn unicode_range_bit(ch: char) -> Option<u32> {
    Some(match ch as u32 {
        0x0000..=0x007F => 0,
        0x0080..=0x00FF => 1,
        0x0100..=0x017F => 2,
        0x0180..=0x024F => 3,
        0x0250..=0x02AF => 4,
        0x02B0..=0x02FF => 5,
        0x0300..=0x036F => 6,
        0x0370..=0x03FF => 7,
        0x0400..=0x052F => 9,
        0x0530..=0x058F => 10,
        0x0590..=0x05FF => 11,
        0x0600..=0x06FF => 13,
        0x0900..=0x097F => 15,
        0x0980..=0x09FF => 16,
        0x0E00..=0x0E7F => 24,
        0x0E80..=0x0EFF => 25,
        0x10A0..=0x10FF => 26,
        0x1100..=0x11FF => 28,
        0x1E00..=0x1EFF => 29,
        0x1F00..=0x1FFF => 30,
        0x2000..=0x206F => 31,
        0x2070..=0x209F => 32,
        0x20A0..=0x20CF => 33,
        0x2100..=0x214F => 35,
        0x2150..=0x218F => 36,
        0x2190..=0x21FF => 37,
        0x2200..=0x22FF => 38,
        0x2300..=0x23FF => 39,
        0x2460..=0x24FF => 42,
        0x2500..=0x257F => 43,
        0x2580..=0x259F => 44,
        0x25A0..=0x25FF => 45,
        0x2600..=0x26FF => 46,
        0x2700..=0x27BF => 47,
        0x3000..=0x303F => 48,
        0x3040..=0x309F => 49,
        0x30A0..=0x30FF => 50,
        0x3100..=0x312F => 51,
        0x3130..=0x318F => 52,
        0x3200..=0x32FF => 54,
        0x3300..=0x33FF => 55,
        0xAC00..=0xD7AF => 56,
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0x20000..=0x2FFFF => 59,
        0xF900..=0xFAFF => 61,
        0xFE30..=0xFE4F => 65,
        0xFE50..=0xFE6F => 66,
        0xFF00..=0xFFEF => 68,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MACHINE_FONTS: &str = "/usr/share/fonts";

    #[test]
    fn nothing_granted_finds_nothing() {
        grant(Vec::new());
        assert!(family("DejaVu Sans").is_none());
        assert!(covering('中').is_none());
    }

    /// `tests/run` installs fonts-noto-cjk and fonts-liberation; a machine without them
    /// fails here, loudly, rather than skipping.
    #[test]
    fn the_machine_fonts_are_found_by_family_alias_and_coverage() {
        grant(vec![MACHINE_FONTS.into()]);
        let cjk = covering('中').expect("a CJK face (fonts-noto-cjk) covers 中");
        assert!(cjk.family().contains("CJK SC"), "{}", cjk.family());
        assert!(cjk.has_glyph('文'));
        let (placed, coverage) = cjk.rasterize('中', 20.0).expect("中 has an outline");
        assert!(placed.width > 10 && placed.height > 10, "{placed:?}");
        assert!(coverage.iter().filter(|&&c| c > 128).count() > 30);
        assert!(matches!(family("liberation sans"), Some(Found::Exact(_))));
        let Some(Found::Alias(arial)) = family("Arial") else {
            panic!("Arial is drawn in its metric-compatible face");
        };
        assert_eq!(arial.family(), "Liberation Sans");
        assert!(family("No Such Family 123").is_none());
        let Some(Found::Exact(listed)) = family("Heiti SC Medium, 'Noto Sans CJK SC'") else {
            panic!("a listed family the machine has is found");
        };
        assert_eq!(listed.family(), "Noto Sans CJK SC");
        // Punctuation first, as a Chinese label often begins (a shelf of its own, so
        // nothing is read yet): the face chosen for it serves the label's Han characters
        // too, so it is the Simplified Chinese one.
        grant(vec![format!("{MACHINE_FONTS}/opentype").into()]);
        assert!(covering('，').expect("，").family().contains("CJK SC"));
    }
}
