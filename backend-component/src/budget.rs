//! Response budgets: a result that would be too big fails instead of being truncated.

use ofgui_contracts::capabilities::ReadLimits;
use serde_json::Value;

/// How a value broke its budget.
#[derive(Debug, PartialEq, Eq)]
pub enum Exceeded {
    Depth,
    Nodes,
    Bytes,
}

impl Exceeded {
    pub fn describe(&self, limits: &ReadLimits) -> String {
        match self {
            Exceeded::Depth => format!("The result nests deeper than {} levels.", limits.max_depth),
            Exceeded::Nodes => format!("The result has more than {} JSON nodes.", limits.max_nodes),
            Exceeded::Bytes => format!("The result is larger than {} bytes.", limits.max_bytes),
        }
    }
}

/// Checks depth and node count of a JSON value, stopping early once a limit is passed.
pub fn check_shape(value: &Value, limits: &ReadLimits) -> Result<(), Exceeded> {
    let mut nodes = 0u64;
    walk(value, 1, limits, &mut nodes)
}

fn walk(value: &Value, depth: u32, limits: &ReadLimits, nodes: &mut u64) -> Result<(), Exceeded> {
    *nodes += 1;
    if *nodes > limits.max_nodes {
        return Err(Exceeded::Nodes);
    }
    if depth > limits.max_depth {
        return Err(Exceeded::Depth);
    }
    match value {
        Value::Array(items) => items
            .iter()
            .try_for_each(|v| walk(v, depth + 1, limits, nodes)),
        Value::Object(map) => map
            .values()
            .try_for_each(|v| walk(v, depth + 1, limits, nodes)),
        _ => Ok(()),
    }
}

/// Checks the serialized size of a result.
pub fn check_bytes(text: &str, limits: &ReadLimits) -> Result<(), Exceeded> {
    if text.len() as u64 > limits.max_bytes {
        Err(Exceeded::Bytes)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SMALL: ReadLimits = ReadLimits {
        max_bytes: 16,
        max_depth: 3,
        max_nodes: 5,
    };

    #[test]
    fn depth_nodes_and_bytes_are_enforced() {
        assert_eq!(check_shape(&json!({"a": {"b": 1}}), &SMALL), Ok(()));
        assert_eq!(
            check_shape(&json!({"a": {"b": {"c": 1}}}), &SMALL),
            Err(Exceeded::Depth)
        );
        assert_eq!(
            check_shape(&json!([1, 2, 3, 4, 5]), &SMALL),
            Err(Exceeded::Nodes)
        );
        assert_eq!(check_bytes("0123456789abcdef", &SMALL), Ok(()));
        assert_eq!(
            check_bytes("0123456789abcdefg", &SMALL),
            Err(Exceeded::Bytes)
        );
    }
}
