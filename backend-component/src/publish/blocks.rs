//! Blocks that components and children share: relations (§5.5), scroll settings (§5.2),
//! margins and size restrictions, and motion paths (§5.7, also custom ease curves of gears).

use ofgui_contracts::uam::{EdgeInsets, Point, Relation, Size};

use super::buffer::Buf;
use super::scope::Scope;
use super::values::int;
use super::{Ctx, PublishError};

/// Relations (§5.5): consecutive relations to one target form one target entry, as one
/// `<relation>` element's side pairs do. A relation to a child that is not published
/// cannot be stored and is left out.
pub(crate) fn write_relations(
    out: &mut Buf,
    scope: &Scope,
    relations: &[Relation],
) -> Result<(), PublishError> {
    let mut groups: Vec<(Option<usize>, Vec<&Relation>)> = Vec::new();
    for relation in relations {
        let target = if relation.target_node_id.is_empty() {
            None
        } else {
            match scope.node_index(&relation.target_node_id) {
                Some(index) => Some(index),
                None => continue,
            }
        };
        let same_target = groups.last().is_some_and(|(_, members)| {
            members
                .last()
                .is_some_and(|m| m.target_node_id == relation.target_node_id)
        });
        match groups.last_mut() {
            Some((_, members)) if same_target => members.push(relation),
            _ => groups.push((target, vec![relation])),
        }
    }
    out.u8_of(groups.len(), "relation targets")?;
    for (target, members) in groups {
        out.index(target, "relation target")?;
        out.u8_of(members.len(), "relations to one target")?;
        for relation in members {
            out.u8(
                u8::try_from(relation.relation_type).map_err(|_| PublishError::OutOfRange {
                    what: "relation type",
                    value: f64::from(relation.relation_type),
                })?,
            );
            out.bool(relation.use_percent);
        }
    }
    Ok(())
}

/// The scroll settings of a component or list (§5.2).
pub(crate) struct ScrollFields<'a> {
    pub scroll_type: i32,
    pub scroll_bar_display: i32,
    pub flags: i32,
    pub margin: &'a EdgeInsets,
    pub vt: &'a str,
    pub hz: &'a str,
    pub header: &'a str,
    pub footer: &'a str,
}

pub(crate) fn write_scroll(
    ctx: &mut Ctx,
    out: &mut Buf,
    fields: &ScrollFields,
) -> Result<(), PublishError> {
    out.u8(u8::try_from(fields.scroll_type).unwrap_or(1));
    out.u8(u8::try_from(fields.scroll_bar_display).unwrap_or(0));
    out.i32(fields.flags);
    insets(out, fields.margin, "scrollBarMargin")?;
    for url in [fields.vt, fields.hz, fields.header, fields.footer] {
        out.opt(&mut ctx.strings, url)?;
    }
    Ok(())
}

/// `bool has → i32 top, bottom, left, right`, present when any side is set.
pub(crate) fn insets(
    out: &mut Buf,
    insets: &EdgeInsets,
    what: &'static str,
) -> Result<(), PublishError> {
    let values = [insets.top, insets.bottom, insets.left, insets.right];
    let has = values.iter().any(|v| v.get() != 0.0);
    out.bool(has);
    if has {
        for v in values {
            out.i32(int(v, what)?);
        }
    }
    Ok(())
}

/// `bool has → i32 minWidth, maxWidth, minHeight, maxHeight`, present when any is set.
pub(crate) fn restrict(out: &mut Buf, min: &Size, max: &Size) -> Result<(), PublishError> {
    let values = [min.width, max.width, min.height, max.height];
    let has = values.iter().any(|v| v.get() != 0.0);
    out.bool(has);
    if has {
        for v in values {
            out.i32(int(v, "restrictSize")?);
        }
    }
    Ok(())
}

pub(crate) fn is_zero_point(point: &Point) -> bool {
    point.x.get() == 0.0 && point.y.get() == 0.0
}

/// A motion path or custom ease curve (§5.7): `i32` point count, then per point its curve
/// type (0 CRSpline, 1 Bezier, 2 CubicBezier, 3 Straight), `x, y` and the control points
/// the type has. The XML writes the same as a comma list, each point followed by one more
/// number (the editor's smoothing flag, which the format does not carry). A list that
/// breaks off keeps the points read before.
pub(crate) fn write_path(out: &mut Buf, path: &str) -> Result<(), PublishError> {
    let numbers: Vec<f64> = if path.trim().is_empty() {
        Vec::new()
    } else {
        path.split(',')
            .map_while(|part| part.trim().parse::<f64>().ok().filter(|v| v.is_finite()))
            .collect()
    };
    let mut points: Vec<(u8, &[f64])> = Vec::new();
    let mut rest = numbers.as_slice();
    while let Some((&curve, tail)) = rest.split_first() {
        let Some(code) = (0u8..4).find(|&c| f64::from(c) == curve) else {
            break;
        };
        let controls = match code {
            1 => 2,
            2 => 4,
            _ => 0,
        };
        let Some((values, after)) = tail.split_at_checked(2 + controls) else {
            break;
        };
        points.push((code, values));
        // The smoothing flag after each point.
        rest = after.get(1..).unwrap_or_default();
    }
    out.i32_of(points.len(), "path points")?;
    for (code, values) in points {
        out.u8(code);
        for v in values {
            out.f32(super::values::float_f64(*v, "path point")?);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_the_xml_point_list() {
        // A cubic point (4 control values) and a straight one, each with its smoothing flag.
        let mut out = Buf::default();
        write_path(&mut out, "2,0,0,12,48,-1,-2,1,3,5,6,0").unwrap();
        let mut expected = Buf::default();
        expected.i32(2);
        expected.u8(2);
        for v in [0.0, 0.0, 12.0, 48.0, -1.0, -2.0] {
            expected.f32(v);
        }
        expected.u8(3);
        expected.f32(5.0);
        expected.f32(6.0);
        assert_eq!(out, expected);

        // Empty, cut short, or not a curve type: only whole points are kept.
        for (path, points) in [("", 0), ("2,0,0,12", 0), ("3,1,2,0,9,1,1", 1)] {
            let mut out = Buf::default();
            write_path(&mut out, path).unwrap();
            assert_eq!(
                out.as_bytes().get(..4),
                Some(&points_count(points)[..]),
                "{path}"
            );
        }
    }

    fn points_count(n: i32) -> [u8; 4] {
        n.to_be_bytes()
    }
}
