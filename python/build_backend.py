"""A PEP 517 build backend for floe's Python package, with nothing to install first: it packs
python/floe/*.py and the extension that `make` built (build/release/python/floe/_floe*.so, or
under FLOE_BUILD_DIR) into a wheel for this interpreter. `pip install --no-index
--no-build-isolation ./python` therefore needs no network and compiles nothing again."""

import base64
import glob
import hashlib
import os
import sys
import sysconfig
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
NAME, VERSION = "floe", "0.1.0"


def _tag():
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{python}-{python}-{platform}"


def _files():
    build = os.environ.get("FLOE_BUILD_DIR", os.path.join(HERE, "..", "build", "release"))
    extension = glob.glob(os.path.join(build, "python", "floe", "_floe" + sysconfig.get_config_var(
        "EXT_SUFFIX")))
    if not extension:
        raise RuntimeError(f"no floe/_floe extension for this Python under {build}/python: run "
                           "`make` first (or set FLOE_BUILD_DIR)")
    files = {f"floe/{os.path.basename(p)}": p for p in glob.glob(os.path.join(HERE, "floe", "*.py"))}
    files[f"floe/{os.path.basename(extension[0])}"] = extension[0]
    return files


def _metadata():
    return f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\n"


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = os.path.join(metadata_directory, f"{NAME}-{VERSION}.dist-info")
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "METADATA"), "w") as out:
        out.write(_metadata())
    return os.path.basename(info)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    tag = _tag()
    wheel = f"{NAME}-{VERSION}-{tag}.whl"
    info = f"{NAME}-{VERSION}.dist-info"
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w", zipfile.ZIP_DEFLATED) as out:
        def add(name, data):
            out.writestr(name, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            records.append(f"{name},sha256={digest},{len(data)}")

        for name, path in sorted(_files().items()):
            with open(path, "rb") as source:
                add(name, source.read())
        add(f"{info}/METADATA", _metadata().encode())
        add(f"{info}/WHEEL", (f"Wheel-Version: 1.0\nGenerator: floe build_backend\n"
                              f"Root-Is-Purelib: false\nTag: {tag}\n").encode())
        records.append(f"{info}/RECORD,,")
        out.writestr(f"{info}/RECORD", "\n".join(records) + "\n")
    return wheel
