//! How a map's layers, tiles, IntGrid values and objects become collide geometry:
//! [`MapConfig`] and the rule language of the `collide` property ([`Rule`]).
//!
//! The defaults are the tables of `docs/maps.md`.

use collide_world::{Corner, Real, StepConfig, Vec2, Walls};

/// What one tile, IntGrid value or object becomes. Written in maps as the string value of the
/// `collide` custom property (Tiled tiles, objects and layers) or as an LDtk IntGrid value's
/// identifier (or an enum tag of its tile), parsed by [`Rule::parse`]:
///
/// | text | rule |
/// |---|---|
/// | `wall`, `solid` | [`Rule::Wall`] |
/// | `brick`, `brick:R` | [`Rule::Brick`] (kind byte `R`; default `B`) |
/// | `slope:1` `slope:3` `slope:7` `slope:9` | [`Rule::Slope`], solid corner on a numeric keypad (`1` ◣, `3` ◢, `7` ◤, `9` ◥) |
/// | `one_way`, `oneway`, `platform` | [`Rule::OneWay`] |
/// | `sensor`, `sensor:a` | [`Rule::Sensor`] (kind byte `a`; default `s`) |
/// | `kinematic` | [`Rule::Kinematic`] (objects only) |
/// | `dynamic` | [`Rule::Dynamic`] (rectangle objects only) |
/// | `none`, `empty`, `decor` | [`Rule::None`] |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Not part of the collision geometry.
    None,
    /// Solid and immovable: a wall cell, a static rectangle or shape.
    Wall,
    /// A destructible brick cell holding a kind byte ([`collide_world::Cell::Brick`]).
    Brick(u8),
    /// A 45° slope cell, solid at the corner named.
    Slope(Corner),
    /// A one-way platform: a static one-way rectangle ([`collide_world::Surface::one_way`])
    /// that balls, boxes and characters pass from below and land on from above.
    OneWay,
    /// A sensor: a trigger area reporting balls entering and leaving, holding a kind byte
    /// for cells.
    Sensor(u8),
    /// A kinematic rectangle (objects only): moved by the game, unaffected by hits.
    Kinematic,
    /// A dynamic rectangle (rectangle objects only): bounces off everything, exchanging
    /// momentum ([`collide_world::RectKind::Dynamic`]).
    Dynamic,
}

impl Rule {
    /// Parses a rule's text (see the type's table; case-insensitive, surrounding spaces
    /// ignored). `None` for text that is not a rule.
    ///
    /// ```
    /// use collide_maps::Rule;
    /// use collide_world::Corner;
    /// assert_eq!(Rule::parse("slope:9"), Some(Rule::Slope(Corner::TopRight)));
    /// assert_eq!(Rule::parse(" Brick:R "), Some(Rule::Brick(b'R')));
    /// assert_eq!(Rule::parse("slope:5"), None);
    /// ```
    #[must_use]
    pub fn parse(text: &str) -> Option<Rule> {
        let t = text.trim();
        let (head, arg) = match t.split_once(':') {
            Some((h, a)) => (h.trim(), Some(a.trim())),
            None => (t, None),
        };
        let byte = |default: u8| -> Option<u8> {
            match arg {
                None => Some(default),
                Some(a) if a.len() == 1 && a.is_ascii() => Some(a.as_bytes()[0]),
                Some(_) => None,
            }
        };
        match (head.to_ascii_lowercase().as_str(), arg) {
            ("wall" | "solid", None) => Some(Rule::Wall),
            ("none" | "empty" | "decor", None) => Some(Rule::None),
            ("one_way" | "oneway" | "platform", None) => Some(Rule::OneWay),
            ("kinematic", None) => Some(Rule::Kinematic),
            ("dynamic", None) => Some(Rule::Dynamic),
            ("brick", _) => byte(b'B').map(Rule::Brick),
            ("sensor", _) => byte(b's').map(Rule::Sensor),
            ("slope", Some(a)) => match a {
                "1" => Some(Rule::Slope(Corner::BottomLeft)),
                "3" => Some(Rule::Slope(Corner::BottomRight)),
                "7" => Some(Rule::Slope(Corner::TopLeft)),
                "9" => Some(Rule::Slope(Corner::TopRight)),
                _ => None,
            },
            _ => None,
        }
    }
}

/// The mapping from a map to a collide scene. `MapConfig::default()` is the mapping of
/// `docs/maps.md`; every field can be changed.
#[derive(Clone, Debug, PartialEq)]
pub struct MapConfig {
    /// Names (case-insensitive) of the layers whose every non-empty tile, IntGrid value or
    /// object is a wall unless its own rule says otherwise. Default `collision`,
    /// `collisions`, `collider`, `colliders`, `solid`, `walls`.
    pub collision_layers: Vec<String>,
    /// The custom property holding a [`Rule`] (Tiled tiles, objects and layers). Default
    /// `collide`.
    pub rule_property: String,
    /// A custom property naming a physics body type (`static`, `kinematic`, `dynamic`, as
    /// Box2D-based Tiled loaders read it; Sticker Knight uses it): an object with it is a
    /// collider. Default `Some("bodyType")`.
    pub body_type_property: Option<String>,
    /// Boolean custom properties that make an object a one-way platform when true. Default
    /// `one_way`, `oneway`, `floating` (Sticker Knight's).
    pub one_way_properties: Vec<String>,
    /// The custom property holding an object's restitution (a number). Default
    /// `restitution`.
    pub restitution_property: String,
    /// The integer custom properties holding an object's collision layers and mask
    /// ([`collide_world::Filter`]). Default `layers` and `mask`.
    pub filter_properties: (String, String),
    /// The boolean custom property that makes an object a sensor. Default `sensor`.
    pub sensor_property: String,
    /// Rules of LDtk IntGrid values by identifier (case-insensitive), tried before the
    /// identifier itself is read as a [`Rule`]; a value matching neither is a wall. Default
    /// `ladder` → sensor `l`, `water` → sensor `w`, `platform`/`jumpthrough` → one-way.
    pub intgrid_rules: Vec<(String, Rule)>,
    /// Merge the static solid rectangles of objects into the fewest disjoint rectangles
    /// (horizontal bands), so that a floor drawn as many touching or overlapping pieces is one
    /// flat face with no seam. Default true.
    pub merge_rects: bool,
    /// Which sides of the level rectangle reflect. Default all four.
    pub walls: Walls,
    /// Restitution of wall and slope cells (`None`: the world's). Default `None`.
    pub wall_restitution: Option<Real>,
    /// Restitution of brick cells (`None`: the world's). Default `None`.
    pub brick_restitution: Option<Real>,
    /// The scene's step settings. Default [`StepConfig::default`] with gravity `(0, 981)`
    /// units/s² (Earth's at 100 px per metre) and restitution 0.5.
    pub step: StepConfig,
    /// Load a Tiled map whose object templates (`.tx`) are missing: each such object keeps
    /// only its own attributes, and the template is listed in [`crate::MapReport`]. False:
    /// a missing template is [`crate::MapError::MissingFile`]. Default true.
    pub allow_missing_templates: bool,
}

impl Default for MapConfig {
    fn default() -> Self {
        let s = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect();
        MapConfig {
            collision_layers: s(&[
                "collision",
                "collisions",
                "collider",
                "colliders",
                "solid",
                "walls",
            ]),
            rule_property: "collide".to_owned(),
            body_type_property: Some("bodyType".to_owned()),
            one_way_properties: s(&["one_way", "oneway", "floating"]),
            restitution_property: "restitution".to_owned(),
            filter_properties: ("layers".to_owned(), "mask".to_owned()),
            sensor_property: "sensor".to_owned(),
            intgrid_rules: vec![
                ("ladder".to_owned(), Rule::Sensor(b'l')),
                ("water".to_owned(), Rule::Sensor(b'w')),
                ("platform".to_owned(), Rule::OneWay),
                ("jumpthrough".to_owned(), Rule::OneWay),
            ],
            merge_rects: true,
            walls: Walls::ALL,
            wall_restitution: None,
            brick_restitution: None,
            step: StepConfig {
                gravity: Vec2::new(0.0, 981.0),
                restitution: 0.5,
                ..StepConfig::default()
            },
            allow_missing_templates: true,
        }
    }
}

impl MapConfig {
    /// Whether `name` is one of [`MapConfig::collision_layers`] (case-insensitive).
    #[must_use]
    pub fn is_collision_layer(&self, name: &str) -> bool {
        self.collision_layers
            .iter()
            .any(|n| n.eq_ignore_ascii_case(name.trim()))
    }

    /// The rule of an LDtk IntGrid value's identifier: [`MapConfig::intgrid_rules`], else the
    /// identifier read as a [`Rule`], else [`Rule::Wall`].
    #[must_use]
    pub fn intgrid_rule(&self, identifier: &str) -> Rule {
        self.intgrid_rules
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(identifier.trim()))
            .map(|(_, r)| *r)
            .or_else(|| Rule::parse(identifier))
            .unwrap_or(Rule::Wall)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse_and_refuse() {
        assert_eq!(Rule::parse("WALL"), Some(Rule::Wall));
        assert_eq!(Rule::parse("sensor"), Some(Rule::Sensor(b's')));
        assert_eq!(Rule::parse("sensor:a"), Some(Rule::Sensor(b'a')));
        assert_eq!(
            Rule::parse("slope:1"),
            Some(Rule::Slope(Corner::BottomLeft))
        );
        assert_eq!(Rule::parse("one_way"), Some(Rule::OneWay));
        for bad in [
            "",
            "slope",
            "slope:2",
            "brick:RR",
            "sensor:é",
            "wall:1",
            "door",
        ] {
            assert_eq!(Rule::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn intgrid_defaults() {
        let c = MapConfig::default();
        assert_eq!(c.intgrid_rule("dirt"), Rule::Wall);
        assert_eq!(c.intgrid_rule("Ladder"), Rule::Sensor(b'l'));
        assert_eq!(c.intgrid_rule("slope:3"), Rule::Slope(Corner::BottomRight));
        assert!(c.is_collision_layer("Collisions"));
        assert!(!c.is_collision_layer("Entities"));
    }
}
