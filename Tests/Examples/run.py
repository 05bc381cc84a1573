"""Runs the example tests against built executables and prints one closing line.

    python3 Tests/Examples/run.py BIN_PATH    # BIN_PATH: `swift build --show-bin-path`
"""

import os
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    os.environ["RXUV_EXAMPLES_BIN"] = os.path.abspath(sys.argv[1])
    sys.path.insert(0, HERE)
    suite = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
    started = time.monotonic()
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    passed = result.testsRun - failed - len(result.skipped)
    print(f"example tests took {time.monotonic() - started:.1f}s")
    print(f"examples: {passed} passed, {failed} failed")
    return 0 if failed == 0 and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
