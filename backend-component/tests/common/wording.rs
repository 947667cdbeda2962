//! The wording checks of a refused batch.

use ofgui_backend::testing::assert_articles;
use ofgui_backend::txn::Failure;

/// A refused batch, after checking the wording of its message and every issue's.
pub fn well_worded(failure: Failure) -> Failure {
    assert_articles(
        std::iter::once(failure.message.as_str())
            .chain(failure.issues.iter().map(|issue| issue.message.as_str())),
    );
    failure
}
