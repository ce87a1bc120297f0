"""What the Python tests share: a temporary folder per test, the floe binary, the peers."""

import os
import shutil
import subprocess
import tempfile
import unittest

import floe

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("FLOE_SHARED_DIR", os.path.join(os.path.dirname(ROOT), "shared"))
FLOE_BINARY = os.environ.get("FLOE_BINARY", os.path.join(ROOT, "build", "release", "floe"))
CH = os.path.join(SHARED, "peers", "ch")


class TempDirTest(unittest.TestCase):
    """A test with its own folder (self.dir) and a TableEnvironment on an embedded catalog
    in it (self.t_env)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="floe-python-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.t_env = floe.TableEnvironment(warehouse=os.path.join(self.dir, "warehouse"))

    def hadoop_catalog(self, name="lake"):
        """A hadoop catalog in self.dir/name, current, with database db; returns its folder."""
        warehouse = os.path.join(self.dir, name)
        self.t_env.execute_sql(f"CREATE CATALOG {name} WITH ('type'='iceberg', "
                               f"'catalog-type'='hadoop', 'warehouse'='{warehouse}')")
        self.t_env.use_catalog(name)
        self.t_env.execute_sql("CREATE DATABASE db")
        self.t_env.use_database("db")
        return warehouse

    def rows(self, sql):
        return [tuple(row) for row in self.t_env.execute_sql(sql).collect()]


def clickhouse(sql):
    """ClickHouse's JSONEachRow lines for a query, or skips the test when the peer is missing."""
    if not os.path.exists(CH):
        raise unittest.SkipTest("ClickHouse peer not installed (../shared/peers/ch)")
    out = subprocess.run([CH, sql, "JSONEachRow"], check=True, capture_output=True, text=True,
                         timeout=300)
    return out.stdout


def child_env():
    """This process's environment for a child Python that runs in another folder: PYTHONPATH
    made absolute."""
    env = dict(os.environ)
    paths = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in paths)
    return env
