"""The lock of a run directory: a lock another run has created but not yet written (empty)
is held, not stale, for a grace period; an old unreadable one is taken over."""

import os
import time

import pytest

from mtc_cli.core.errors import MtcError
from mtc_cli.run import runlock


@pytest.mark.reliability
def test_an_empty_lock_being_written_is_held(tmp_path):
    (tmp_path / runlock.NAME).touch()  # another run between O_EXCL and its write
    with pytest.raises(MtcError, match="in use by another mtc run"):
        with runlock.hold(tmp_path):
            pass
    assert (tmp_path / runlock.NAME).exists()  # still the other run's


def test_an_old_unreadable_lock_is_taken_over_and_released(tmp_path):
    lock = tmp_path / runlock.NAME
    lock.write_text("{not json")
    old = time.time() - 2 * runlock.UNREAD_GRACE_S
    os.utime(lock, (old, old))
    with runlock.hold(tmp_path) as path:
        assert str(os.getpid()) in path.read_text()
    assert not lock.exists()
