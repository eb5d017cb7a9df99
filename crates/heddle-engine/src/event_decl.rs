//! `run_events!`: declares the [`crate::Event`] enum from one list of `"name" => Variant { fields }`
//! entries, so each event's wire name is written once and the serde tag, `Event::name`,
//! `EVENT_NAMES` and the TypeScript union (ts-rs reads the serde tag) cannot disagree.

/// Expands to the `Event` enum (adjacently tagged: `event` holds the name, `properties`
/// the fields), `EVENT_NAMES` in declaration order, and `Event::name`.
macro_rules! run_events {
    (
        $(#[$enum_meta:meta])*
        pub enum Event {
        $(
            $(#[$variant_meta:meta])*
            $name:literal => $variant:ident {
                $(
                    $(#[$field_meta:meta])*
                    $field:ident : $ty:ty
                ),* $(,)?
            }
        ),* $(,)?
        }
    ) => {
        $(#[$enum_meta])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[cfg_attr(feature = "ts", derive(ts_rs::TS))]
        #[cfg_attr(feature = "ts", ts(rename = "RunEventBody"))]
        #[serde(tag = "event", content = "properties")]
        pub enum Event {
            $(
                $(#[$variant_meta])*
                #[serde(rename = $name)]
                $variant {
                    $(
                        $(#[$field_meta])*
                        $field: $ty,
                    )*
                },
            )*
        }

        /// Every event name, in declaration order (which docs/events.md follows).
        pub const EVENT_NAMES: &[&str] = &[$($name),*];

        impl Event {
            /// The event's name (`stage.started`, ...), as its JSON `event` field holds it.
            pub fn name(&self) -> &'static str {
                match self {
                    $(Event::$variant { .. } => $name,)*
                }
            }
        }
    };
}
