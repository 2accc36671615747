"""hzai.lazy, the library's one way of importing late, and what it keeps out of
`hzai --help` and the light commands."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hzai.lazy import lazy_call, lazy_import

HEAVY = ("numpy", "matplotlib", "ray", "hzai.search.arena", "hzai.learn.commands", "hzai.learn.selfplay",
         "hzai.native.model", "hzai.analysis_cli", "hzai.review", "hzai.review_plot")


def test_a_lazy_call_imports_its_module_on_the_first_call_only():
    code = ("import sys; from hzai.lazy import lazy_call; f = lazy_call('fractions:Fraction'); "
            "before = 'fractions' in sys.modules; x = f(3, 6); "
            "print(before, 'fractions' in sys.modules, x, f.__name__, f.__qualname__)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "True", "1/2", "Fraction", "fractions:Fraction"]


def test_lazy_call_passes_arguments_and_answers():
    dumps = lazy_call("json:dumps")
    assert dumps([1, 2], separators=(",", ":")) == "[1,2]"
    assert lazy_import("json.decoder").JSONDecodeError.__name__ == "JSONDecodeError"


@pytest.mark.parametrize("target", ["json.dumps", "json:", ":dumps", "json:not a name", ""])
def test_a_target_without_module_and_name_is_refused(target):
    with pytest.raises(ValueError, match="package.module:name"):
        lazy_call(target)


def test_a_missing_function_or_module_is_said_on_the_call():
    with pytest.raises(ImportError, match="json has no nothing_here"):
        lazy_call("json:nothing_here")()
    with pytest.raises(ImportError):
        lazy_call("hzai.no_such_module:run")()


def test_help_and_a_record_command_load_none_of_the_heavy_modules(tmp_path):
    """`hzai --help`, `hzai selfplay --help` and `hzai new` parse every command and run a
    light one: numpy, the learning modules, the model files, the analysis and the arena
    stay unloaded."""
    code = ("import sys, contextlib, io\n"
            "from hzai_client.cli import main\n"
            "for argv in (['--help'], ['selfplay', '--help'], ['new', '--seed', '3', '-o', sys.argv[1]]):\n"
            "    with contextlib.redirect_stdout(io.StringIO()):\n"
            "        try:\n"
            "            assert main(argv) == 0\n"
            "        except SystemExit as exc:\n"
            "            assert exc.code == 0\n"
            f"print(sorted(m for m in sys.modules if m in {HEAVY!r}))\n")
    run = subprocess.run([sys.executable, "-c", code, str(tmp_path / "r.json")], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
    assert (tmp_path / "r.json").read_text().startswith("{")


def test_a_learning_command_runs_through_its_lazy_body(tmp_path, capsys):
    """`hzai combine` resolves hzai.learn.commands:cmd_combine and answers bad input in one line."""
    from hzai.cli import main

    missing = tmp_path / "absent.npz"
    assert main(["combine", "--value", str(missing), "--policy", str(missing), "--out", str(tmp_path / "m.npz"),
                 "--version", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hzai combine: ") and "absent.npz" in err
