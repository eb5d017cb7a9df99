//! Which declarations apply to a node.

use super::{Declaration, Stylesheet};

impl Stylesheet {
    /// For each property the stylesheet sets on a node with this id, shape and classes, the
    /// winning declaration: highest selector specificity, then the later rule (and the later
    /// declaration within a rule). Unknown properties are ignored. Sorted by property name.
    pub fn resolve(
        &self,
        id: &str,
        shape: &str,
        classes: &[String],
    ) -> Vec<(&'static str, &Declaration)> {
        // (property, specificity, rule index, declaration)
        let mut winners: Vec<(&'static str, u8, usize, &Declaration)> = Vec::new();
        for (rule_index, rule) in self.rules.iter().enumerate() {
            let Some(specificity) = rule
                .selectors
                .iter()
                .filter(|s| s.matches(id, shape, classes))
                .map(|s| s.specificity())
                .max()
            else {
                continue;
            };
            for declaration in &rule.declarations {
                let Some(property) = declaration.canonical() else {
                    continue;
                };
                match winners.iter_mut().find(|w| w.0 == property) {
                    Some(winner) => {
                        if (specificity, rule_index) >= (winner.1, winner.2) {
                            *winner = (property, specificity, rule_index, declaration);
                        }
                    }
                    None => winners.push((property, specificity, rule_index, declaration)),
                }
            }
        }
        winners.sort_by_key(|w| w.0);
        winners.into_iter().map(|(p, _, _, d)| (p, d)).collect()
    }
}
