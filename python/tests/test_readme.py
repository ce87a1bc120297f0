"""The README's Python example runs as written and prints what its comments say."""

import os
import re
import subprocess
import sys

from support import ROOT, TempDirTest, child_env


class ReadmeTest(TempDirTest):
    def test_example_runs(self):
        with open(os.path.join(ROOT, "README.md")) as readme:
            text = readme.read()
        section = text[text.index("## Python"):]
        example = re.search(r"```python\n(.*?)```", section, re.S).group(1)
        out = subprocess.run([sys.executable, "-c", example], check=True, capture_output=True,
                             text=True, cwd=self.dir, env=child_env(), timeout=300).stdout.splitlines()
        self.assertEqual(out[:2], ["1 Ada 1815", "2 Alan 1912"])
        self.assertEqual(out[2:7], ["+------+", "| name |", "+------+", "|  Ada |", "| Alan |"])
        self.assertEqual(out[-2:], ["2 rows in set", "['people', 'visits']"])
