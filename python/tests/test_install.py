"""The package installs from the checkout without network (`pip install --no-index
--no-build-isolation ./python`, here into a folder) and imports from there."""

import os
import subprocess
import sys

from support import ROOT, TempDirTest


class InstallTest(TempDirTest):
    def test_pip_installs_the_built_module(self):
        target = os.path.join(self.dir, "site")
        env = dict(os.environ)
        build = os.environ.get("PYTHONPATH", "").split(os.pathsep)[0]
        if build:
            env["FLOE_BUILD_DIR"] = os.path.dirname(os.path.abspath(build))
        subprocess.run([sys.executable, "-m", "pip", "install", "--no-index",
                        "--no-build-isolation", "--target", target, os.path.join(ROOT, "python")],
                       check=True, capture_output=True, env=env, timeout=300)
        env["PYTHONPATH"] = target
        out = subprocess.run([sys.executable, "-c",
                              "import floe; print(floe.__file__); "
                              "print(floe.TableEnvironment(warehouse='').list_catalogs())"],
                             check=True, capture_output=True, text=True, env=env, cwd=self.dir)
        path, catalogs = out.stdout.splitlines()
        self.assertEqual(path, os.path.join(target, "floe", "__init__.py"))
        self.assertEqual(catalogs, "['default_catalog']")
