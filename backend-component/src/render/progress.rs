//! Progress bars and sliders as the runtime shows them: `GProgressBar` and `GSlider` size
//! their child `bar` (or `bar_v`) to the value's share of its full length, or set its fill
//! amount when it is a filled image, and write the value into their `title`, when they are
//! added to a parent: an instance without a value shows 50 of 100, and a bar drawn on its
//! own shows its children as designed.

use ofgui_contracts::uam::ComponentProperties;

/// An instance's value, min and max.
#[derive(Clone, Copy, Debug)]
pub struct Value {
    pub value: f64,
    pub min: f64,
    pub max: f64,
}

/// Where a bar or slider of this component stands.
pub struct Progress {
    pub percent: f32,
    /// The `title` child's text, by the component's title type.
    pub title: String,
    reverse: bool,
    /// Sliders always resize their bar; progress bars fill a filled image instead.
    slider: bool,
}

/// A bar's box and fill.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BarBox {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

impl Progress {
    /// The progress of a component whose extension is a progress bar or slider, at the
    /// instance's value (the runtime's 50 of 100 without one); `None` for others.
    pub fn of(properties: &ComponentProperties, value: Option<Value>) -> Option<Progress> {
        let slider = match properties.extension_type.as_str() {
            "ProgressBar" => false,
            "Slider" => true,
            _ => return None,
        };
        let Value { value, min, max } = value.unwrap_or(Value {
            value: 50.0,
            min: 0.0,
            max: 100.0,
        });
        let span = max - min;
        let percent = if span != 0.0 {
            ((value - min) / span).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let number = |n: f64| {
            if slider {
                format_number(n)
            } else {
                format_number(n.floor())
            }
        };
        let title = match properties.title_type {
            1 => format!("{}/{}", number(value), number(max)),
            2 => number(value),
            3 => number(max),
            _ => format!("{}%", (percent * 100.0).floor()),
        };
        Some(Progress {
            percent: percent as f32,
            title,
            reverse: properties.reverse,
            slider,
        })
    }

    /// The bar's box at this progress, from its full box; `filled` when the bar is an
    /// image or loader with a fill method. Returns the box and, for a filled bar, the
    /// fill amount (the box then stays).
    pub fn bar(&self, full: BarBox, vertical: bool, filled: bool) -> (BarBox, Option<f32>) {
        if filled && !self.slider {
            let amount = if self.reverse {
                1.0 - self.percent
            } else {
                self.percent
            };
            return (full, Some(amount));
        }
        let mut shown = full;
        if vertical {
            shown.height = (full.height * self.percent).round();
            if self.reverse {
                shown.y = full.y + full.height - shown.height;
            }
        } else {
            shown.width = (full.width * self.percent).round();
            if self.reverse {
                shown.x = full.x + full.width - shown.width;
            }
        }
        (shown, None)
    }
}

/// A number as JavaScript prints it: no fraction when whole.
fn format_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn properties(extension: &str, title_type: i32) -> ComponentProperties {
        let mut p = crate::reader::component::default_properties();
        p.extension_type = extension.into();
        p.title_type = title_type;
        p
    }

    #[test]
    fn a_bar_on_its_own_is_half_full_and_says_so() {
        let progress = Progress::of(&properties("ProgressBar", 0), None).unwrap();
        assert_eq!(progress.title, "50%");
        let full = BarBox {
            x: 5.0,
            y: 0.0,
            width: 101.0,
            height: 6.0,
        };
        let (shown, fill) = progress.bar(full, false, false);
        assert_eq!((shown.x, shown.width, fill), (5.0, 51.0, None));
        let (shown, fill) = progress.bar(full, false, true);
        assert_eq!((shown, fill), (full, Some(0.5)));
    }

    #[test]
    fn titles_follow_the_title_type() {
        let value = Some(Value {
            value: 67.5,
            min: 0.0,
            max: 200.0,
        });
        let bar = |t| {
            Progress::of(&properties("ProgressBar", t), value)
                .unwrap()
                .title
        };
        assert_eq!(
            [bar(0), bar(1), bar(2), bar(3)],
            ["33%", "67/200", "67", "200"]
        );
        let slider = Progress::of(&properties("Slider", 1), value).unwrap();
        assert_eq!(slider.title, "67.5/200");
        assert!(Progress::of(&properties("Button", 0), value).is_none());
    }
}
