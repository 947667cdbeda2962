//! Placing sprites on pages: a max-rects packer, the smallest page the sprites fit, more
//! pages when they do not fit one, and a page of its own for a sprite larger than the largest
//! page.
//!
//! Sprites are placed largest side first, as the editor orders them (its sprite records come
//! in that order too). A page size counts as fitting when one of several placement rules
//! ([`Rule`]) places every sprite on it: one rule alone leaves pages larger than the
//! editor's (five 248×378 images fit a 1024×512 page only when placed bottom-left first). Each sprite takes a cell `padding` larger than itself on both axes.
//! Without a margin the cells run from the page's top-left corner and the page may cut the
//! last cell's padding (sprites sit `padding` apart, the first at 0,0: the editor's usual
//! layout); with one, every sprite sits half the padding inside its cell, page edges
//! included (the editor's layout when an image of the atlas copies its edge pixels out,
//! `duplicatePadding`, so the copies have room).

use std::cmp::Reverse;

use super::settings::SizeOption;

/// The most pixels rounding may give a page of its own (64 MiB of RGBA, the most one image
/// may decode to): a larger rounded page keeps its sprite's own size instead.
const MAX_ROUNDED_PAGE_PIXELS: u64 = 16 * 1024 * 1024;

/// How to pack one atlas.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PackSettings {
    pub max_size: u32,
    pub size_option: SizeOption,
    pub square: bool,
    pub rotation: bool,
    pub paging: bool,
    pub padding: u32,
    pub margin: bool,
}

impl PackSettings {
    /// Where a sprite sits inside its cell.
    fn inset(&self) -> u32 {
        if self.margin { self.padding / 2 } else { 0 }
    }

    /// The bin a page of this size offers to cells: without a margin the page may cut
    /// the padding of the last row and column.
    fn bin(&self, width: u32, height: u32) -> (u32, u32) {
        if self.margin {
            (width, height)
        } else {
            (width + self.padding, height + self.padding)
        }
    }
}

/// Where one sprite went: its top-left pixel on its page, and whether it is stored turned
/// a quarter counter-clockwise (its width running up the page).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Placement {
    pub page: usize,
    pub x: u32,
    pub y: u32,
    pub rotated: bool,
}

/// The pages of one atlas and where each sprite went.
#[derive(Debug, Default)]
pub(crate) struct Packing {
    /// Page sizes, in page order.
    pub pages: Vec<(u32, u32)>,
    /// One per sprite, in the order the sizes were given.
    pub placements: Vec<Placement>,
    /// The sprites needed more than one page although paging is off.
    pub overflowed: bool,
}

/// Packs sprites of the given sizes (`width`, `height`, each at least 1).
pub(crate) fn pack(sizes: &[(u32, u32)], settings: &PackSettings) -> Packing {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&i| {
        let (w, h) = sizes.get(i).copied().unwrap_or_default();
        Reverse(w.max(h))
    });
    let cells: Vec<(u32, u32)> = sizes
        .iter()
        .map(|&(w, h)| (w + settings.padding, h + settings.padding))
        .collect();
    let (max_w, max_h) = settings.bin(settings.max_size, settings.max_size);
    let (fitting, oversized): (Vec<usize>, Vec<usize>) = order.into_iter().partition(|&i| {
        let (w, h) = cells.get(i).copied().unwrap_or_default();
        (w <= max_w && h <= max_h) || (settings.rotation && h <= max_w && w <= max_h)
    });

    let mut packing = Packing {
        placements: vec![
            Placement {
                page: 0,
                x: 0,
                y: 0,
                rotated: false,
            };
            sizes.len()
        ],
        ..Packing::default()
    };
    if !fitting.is_empty() {
        let sets = match smallest_page(&fitting, &cells, settings) {
            Some(page) => vec![(fitting, page)],
            None => {
                packing.overflowed = !settings.paging;
                fill_pages(&fitting, &cells, settings)
            }
        };
        for (members, page) in sets {
            let index = packing.pages.len();
            packing.pages.push(page.size);
            for (&sprite, cell) in members.iter().zip(page.cells) {
                if let Some(slot) = packing.placements.get_mut(sprite) {
                    *slot = Placement {
                        page: index,
                        x: cell.x + settings.inset(),
                        y: cell.y + settings.inset(),
                        rotated: cell.rotated,
                    };
                }
            }
        }
    }
    for sprite in oversized {
        let (w, h) = sizes.get(sprite).copied().unwrap_or_default();
        let room = if settings.margin { settings.padding } else { 0 };
        let (w, h) = (w + room, h + room);
        let mut size = page_size(w, h, settings);
        if u64::from(size.0) * u64::from(size.1) > MAX_ROUNDED_PAGE_PIXELS {
            size = (w, h);
        }
        if let Some(slot) = packing.placements.get_mut(sprite) {
            *slot = Placement {
                page: packing.pages.len(),
                x: settings.inset(),
                y: settings.inset(),
                rotated: false,
            };
        }
        packing.pages.push(size);
    }
    packing
}

/// A page side pair for content of this size, per the size option and squareness.
fn page_size(width: u32, height: u32, settings: &PackSettings) -> (u32, u32) {
    let width = settings.size_option.round_up(width);
    let height = settings.size_option.round_up(height);
    if settings.square {
        let side = width.max(height);
        (side, side)
    } else {
        (width, height)
    }
}

/// A cell as placed.
#[derive(Clone, Copy, Debug)]
struct PlacedCell {
    x: u32,
    y: u32,
    rotated: bool,
}

/// One page: its size and its members' cells, in member order.
struct Page {
    size: (u32, u32),
    cells: Vec<PlacedCell>,
}

/// Page sizes to try, at most the largest: powers of two (and, when the option allows
/// other sizes, the largest itself), smallest area first, of equal areas the squarer and
/// then the wider first, as the editor's pages are.
fn candidate_sizes(settings: &PackSettings) -> Vec<(u32, u32)> {
    let mut sides: Vec<u32> = std::iter::successors(Some(1u32), |s| s.checked_mul(2))
        .take_while(|&s| s <= settings.max_size)
        .collect();
    if settings.size_option != SizeOption::PowerOfTwo && !sides.contains(&settings.max_size) {
        sides.push(settings.max_size);
    }
    let mut sizes: Vec<(u32, u32)> = sides
        .iter()
        .flat_map(|&w| sides.iter().map(move |&h| (w, h)))
        .filter(|&(w, h)| !settings.square || w == h)
        .collect();
    sizes.sort_by_key(|&(w, h)| (u64::from(w) * u64::from(h), w.max(h), Reverse(w)));
    sizes
}

/// The smallest page that holds every member, with their cells; `None` when even the
/// largest page does not.
fn smallest_page(members: &[usize], cells: &[(u32, u32)], settings: &PackSettings) -> Option<Page> {
    let area: u64 = members
        .iter()
        .filter_map(|&i| cells.get(i))
        .map(|&(w, h)| u64::from(w) * u64::from(h))
        .sum();
    let try_size = |(width, height): (u32, u32)| -> Option<Vec<PlacedCell>> {
        let (bin_w, bin_h) = settings.bin(width, height);
        if u64::from(bin_w) * u64::from(bin_h) < area {
            return None;
        }
        Rule::ALL.iter().find_map(|&rule| {
            let mut bin = MaxRects::new(bin_w, bin_h, settings.rotation);
            members
                .iter()
                .map(|&i| {
                    let (w, h) = cells.get(i).copied()?;
                    bin.insert(w, h, rule)
                })
                .collect()
        })
    };
    let rotations = |placed: &[PlacedCell]| placed.iter().filter(|c| c.rotated).count();
    for (width, height) in candidate_sizes(settings) {
        let Some(mut placed) = try_size((width, height)) else {
            continue;
        };
        let mut size = (width, height);
        // The same page stood on end may hold the sprites without turning any (a tall
        // image on a tall page rather than turned on a wide one), as the editor's does.
        if width > height
            && !settings.square
            && rotations(&placed) > 0
            && let Some(upright) = try_size((height, width)).filter(|p| rotations(p) == 0)
        {
            placed = upright;
            size = (height, width);
        }
        let size = cropped(size.0, size.1, members, cells, &placed, settings);
        return Some(Page {
            size,
            cells: placed,
        });
    }
    None
}

/// A page's final size: the size tried, or for options other than powers of two the
/// smallest the content allows.
fn cropped(
    width: u32,
    height: u32,
    members: &[usize],
    cells: &[(u32, u32)],
    placed: &[PlacedCell],
    settings: &PackSettings,
) -> (u32, u32) {
    if settings.size_option == SizeOption::PowerOfTwo {
        return (width, height);
    }
    // Without a margin the trailing padding of the last cells is not page.
    let trailing = if settings.margin { 0 } else { settings.padding };
    let (mut right, mut bottom) = (1, 1);
    for (cell, &i) in placed.iter().zip(members) {
        let (w, h) = cells.get(i).copied().unwrap_or_default();
        let (w, h) = if cell.rotated { (h, w) } else { (w, h) };
        right = right.max((cell.x + w).saturating_sub(trailing));
        bottom = bottom.max((cell.y + h).saturating_sub(trailing));
    }
    page_size(right.min(width), bottom.min(height), settings)
}

/// Fills largest pages one after another, each with what still fits in member order, then
/// shrinks each page to the smallest that holds its share.
fn fill_pages(
    members: &[usize],
    cells: &[(u32, u32)],
    settings: &PackSettings,
) -> Vec<(Vec<usize>, Page)> {
    let (bin_w, bin_h) = settings.bin(settings.max_size, settings.max_size);
    let mut pages = Vec::new();
    let mut remaining = members.to_vec();
    while !remaining.is_empty() {
        let mut bin = MaxRects::new(bin_w, bin_h, settings.rotation);
        let mut share = Vec::new();
        let mut share_cells = Vec::new();
        let mut rest = Vec::new();
        for &i in &remaining {
            let (w, h) = cells.get(i).copied().unwrap_or_default();
            match bin.insert(w, h, Rule::ShortSide) {
                Some(cell) => {
                    share.push(i);
                    share_cells.push(cell);
                }
                None => rest.push(i),
            }
        }
        if share.is_empty() {
            // Every member fits an empty largest page alone, so this cannot happen; stop
            // rather than loop.
            break;
        }
        // Packing the share again alone reproduces this placement at the largest size (the
        // sprites left out never touched the bin), so a smaller page is only ever better.
        let page = smallest_page(&share, cells, settings).unwrap_or(Page {
            size: page_size(settings.max_size, settings.max_size, settings),
            cells: share_cells,
        });
        pages.push((share, page));
        remaining = rest;
    }
    pages
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    x: u32,
    y: u32,
    w: u32,
    h: u32,
}

impl Rect {
    fn right(&self) -> u32 {
        self.x + self.w
    }

    fn bottom(&self) -> u32 {
        self.y + self.h
    }

    fn intersects(&self, other: &Rect) -> bool {
        self.x < other.right()
            && other.x < self.right()
            && self.y < other.bottom()
            && other.y < self.bottom()
    }

    fn contains(&self, other: &Rect) -> bool {
        other.x >= self.x
            && other.y >= self.y
            && other.right() <= self.right()
            && other.bottom() <= self.bottom()
    }
}

/// Where a cell goes among the free rectangles it fits (Jylänki's MaxRects rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// The least left over on the shorter side of the free rectangle.
    ShortSide,
    /// The lowest bottom edge, then the leftmost.
    BottomLeft,
    /// The least area left over.
    Area,
    /// The least left over on the longer side.
    LongSide,
}

impl Rule {
    const ALL: [Rule; 4] = [
        Rule::ShortSide,
        Rule::BottomLeft,
        Rule::Area,
        Rule::LongSide,
    ];

    /// Lower is better.
    fn score(self, free: &Rect, x: u32, y: u32, w: u32, h: u32) -> (u64, u64) {
        let (dw, dh) = (u64::from(free.w - w), u64::from(free.h - h));
        match self {
            Rule::ShortSide => (dw.min(dh), dw.max(dh)),
            Rule::BottomLeft => (u64::from(y) + u64::from(h), u64::from(x)),
            Rule::Area => (
                u64::from(free.w) * u64::from(free.h) - u64::from(w) * u64::from(h),
                dw.min(dh),
            ),
            Rule::LongSide => (dw.max(dh), dw.min(dh)),
        }
    }
}

/// The free space of one bin as maximal rectangles (Jylänki's MaxRects).
struct MaxRects {
    free: Vec<Rect>,
    rotation: bool,
}

impl MaxRects {
    fn new(width: u32, height: u32, rotation: bool) -> Self {
        MaxRects {
            free: vec![Rect {
                x: 0,
                y: 0,
                w: width,
                h: height,
            }],
            rotation,
        }
    }

    /// Places a cell where the rule scores best (upright before turned, on a tie); `None`
    /// when it fits nowhere.
    fn insert(&mut self, w: u32, h: u32, rule: Rule) -> Option<PlacedCell> {
        let mut best: Option<((u64, u64), Rect, bool)> = None;
        for free in &self.free {
            let mut consider = |cw: u32, ch: u32, rotated: bool| {
                if cw > free.w || ch > free.h {
                    return;
                }
                let score = rule.score(free, free.x, free.y, cw, ch);
                if best.is_none_or(|(s, _, _)| score < s) {
                    let used = Rect {
                        x: free.x,
                        y: free.y,
                        w: cw,
                        h: ch,
                    };
                    best = Some((score, used, rotated));
                }
            };
            consider(w, h, false);
            if self.rotation && w != h {
                consider(h, w, true);
            }
        }
        let (_, used, rotated) = best?;
        self.split(&used);
        Some(PlacedCell {
            x: used.x,
            y: used.y,
            rotated,
        })
    }

    /// Takes `used` out of every free rectangle it overlaps, keeping the maximal pieces.
    fn split(&mut self, used: &Rect) {
        let mut pieces = Vec::new();
        self.free.retain(|free| {
            if !free.intersects(used) {
                return true;
            }
            if used.x > free.x {
                pieces.push(Rect {
                    w: used.x - free.x,
                    ..*free
                });
            }
            if used.right() < free.right() {
                pieces.push(Rect {
                    x: used.right(),
                    w: free.right() - used.right(),
                    ..*free
                });
            }
            if used.y > free.y {
                pieces.push(Rect {
                    h: used.y - free.y,
                    ..*free
                });
            }
            if used.bottom() < free.bottom() {
                pieces.push(Rect {
                    y: used.bottom(),
                    h: free.bottom() - used.bottom(),
                    ..*free
                });
            }
            false
        });
        // A new piece lies inside the rectangle it was cut from, so only pieces can be
        // redundant: one inside an old free rectangle or inside another piece.
        let old = self.free.len();
        for (index, piece) in pieces.iter().enumerate() {
            let inside_old = self.free[..old].iter().any(|f| f.contains(piece));
            let inside_piece = pieces.iter().enumerate().any(|(other, p)| {
                other != index && p.contains(piece) && (p != piece || other < index)
            });
            if !inside_old && !inside_piece {
                self.free.push(*piece);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> PackSettings {
        PackSettings {
            max_size: 2048,
            size_option: SizeOption::PowerOfTwo,
            square: false,
            rotation: true,
            paging: true,
            padding: 2,
            margin: false,
        }
    }

    /// Every sprite inside its page and `padding` away from every other on its page.
    fn assert_valid(sizes: &[(u32, u32)], packing: &Packing, settings: &PackSettings) {
        let rects: Vec<(usize, Rect)> = sizes
            .iter()
            .zip(&packing.placements)
            .map(|(&(w, h), p)| {
                let (w, h) = if p.rotated { (h, w) } else { (w, h) };
                (
                    p.page,
                    Rect {
                        x: p.x,
                        y: p.y,
                        w,
                        h,
                    },
                )
            })
            .collect();
        for (i, (page, rect)) in rects.iter().enumerate() {
            let (pw, ph) = packing.pages[*page];
            assert!(
                rect.right() <= pw && rect.bottom() <= ph,
                "{rect:?} outside {pw}x{ph}"
            );
            for (other_page, other) in &rects[i + 1..] {
                // The padding around the sprite, where no other sprite may be.
                let x = rect.x.saturating_sub(settings.padding);
                let y = rect.y.saturating_sub(settings.padding);
                let apart = Rect {
                    x,
                    y,
                    w: rect.right() + settings.padding - x,
                    h: rect.bottom() + settings.padding - y,
                };
                assert!(
                    page != other_page || !apart.intersects(other),
                    "{rect:?} and {other:?} too close"
                );
            }
        }
    }

    #[test]
    fn packs_into_the_smallest_page() {
        let sizes = [(100, 50), (50, 100), (30, 30), (200, 10), (1, 1)];
        let settings = settings();
        let packing = pack(&sizes, &settings);
        assert_eq!(packing.pages.len(), 1);
        let (w, h) = packing.pages[0];
        assert!(w * h <= 256 * 256, "{w}x{h}");
        assert_valid(&sizes, &packing, &settings);
    }

    #[test]
    fn a_margin_keeps_sprites_off_the_page_edge() {
        let settings = PackSettings {
            margin: true,
            ..settings()
        };
        let sizes = [(126, 126), (10, 10)];
        let packing = pack(&sizes, &settings);
        assert_valid(&sizes, &packing, &settings);
        assert_eq!(packing.placements[0].x, 1);
        assert_eq!(packing.placements[0].y, 1);
        // 126 plus a pixel each side fills 128 exactly.
        assert_eq!(packing.pages[0].1.min(packing.pages[0].0), 128);
    }

    #[test]
    fn pages_more_than_one_when_needed_and_gives_oversized_sprites_their_own() {
        let settings = PackSettings {
            max_size: 256,
            ..settings()
        };
        let mut sizes = vec![(120, 120); 9];
        sizes.push((300, 20));
        sizes.push((20, 300));
        let packing = pack(&sizes, &settings);
        assert_valid(&sizes, &packing, &settings);
        assert!(!packing.overflowed);
        // Four 122-pixel cells per 256 page (the page cuts the last padding): three pages,
        // then one for each sprite longer than the page.
        assert_eq!(packing.pages.len(), 5, "{:?}", packing.pages);
        assert_eq!(packing.pages[3], (512, 32));
        assert_eq!(packing.pages[4], (32, 512));
        // Rounding a huge sprite's page up would quadruple it: it keeps its own size.
        assert_eq!(pack(&[(5000, 3000)], &settings).pages, [(5000, 3000)]);
        let no_paging = PackSettings {
            paging: false,
            ..settings
        };
        assert!(pack(&sizes, &no_paging).overflowed);
    }

    #[test]
    fn rotates_only_when_allowed() {
        let sizes = [(200, 20), (20, 200), (20, 200)];
        let fixed = PackSettings {
            rotation: false,
            ..settings()
        };
        let packing = pack(&sizes, &fixed);
        assert!(packing.placements.iter().all(|p| !p.rotated));
        assert_valid(&sizes, &packing, &fixed);
        let turning = pack(&sizes, &settings());
        assert_valid(&sizes, &turning, &settings());
    }

    #[test]
    fn other_size_options_crop_and_square() {
        let sizes = [(100, 30)];
        let npot = PackSettings {
            size_option: SizeOption::Any,
            ..settings()
        };
        assert_eq!(pack(&sizes, &npot).pages, [(100, 30)]);
        let mof = PackSettings {
            size_option: SizeOption::MultipleOfFour,
            margin: true,
            ..settings()
        };
        assert_eq!(pack(&sizes, &mof).pages, [(104, 32)]);
        let square = PackSettings {
            square: true,
            ..settings()
        };
        assert_eq!(pack(&sizes, &square).pages, [(128, 128)]);
    }

    #[test]
    fn many_sprites_pack_without_overlap() {
        let mut state = 12345u32;
        let mut next = |max: u32| {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (state >> 16) % max + 1
        };
        let sizes: Vec<(u32, u32)> = (0..300).map(|_| (next(120), next(60))).collect();
        let settings = PackSettings {
            max_size: 512,
            ..settings()
        };
        let packing = pack(&sizes, &settings);
        assert!(packing.pages.len() > 1);
        assert_valid(&sizes, &packing, &settings);
    }
}
