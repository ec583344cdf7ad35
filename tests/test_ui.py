"""The Dagster UI in a real headless Chromium, against a real dagster-webserver.

The webserver runs as `make ui` runs it (workspace.yaml from the repo root) but on a free
loopback port with a temporary Dagster instance, so the test never touches var/dagster. It
checks what a user of the UI relies on: every pipeline asset in the catalog, the guideline
partitions on an asset page (registered by `cardio partitions sync`, as `make ui` does
before starting the UI), and a materialization
made outside the UI showing up with its metadata after a reload.

Needs Debian's chromium + chromium-driver (`make test` installs them when run as root).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlparse

import pytest
import yaml

from cardio_assets import paths

pytestmark = pytest.mark.ui

# Chosen for speed: a Docling JSON export (no layout conversion), one table over two pages.
SAMPLE_PARTITION = "ccs-sample-docling"
PARTITIONED_ASSET = "table_rows"
MATERIALIZED = ["docling_tables", "table_rows", "tagged_rows"]
WAIT_SECONDS = 120  # DOM waits; generous for 2 shared cores
START_SECONDS = 240  # webserver start includes the code server importing the definitions

INSTALL_HINT = (
    "headless Chromium is needed for the UI test: run `make browser` as root, or "
    "`sudo apt-get install -y chromium chromium-driver`"
)


def _executable(name: str) -> str | None:
    return shutil.which(name) or (f"/usr/bin/{name}" if Path(f"/usr/bin/{name}").exists() else None)


@dataclass
class DagsterUI:
    url: str
    dagster_home: Path
    log: Path


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _instance_yaml(home: Path) -> str:
    """The repo's dagster.yaml with every relative base_dir moved into ``home``, so the test
    instance has the same storage, run queue and concurrency settings as `make ui`."""
    config = yaml.safe_load((paths.PROJECT_ROOT / "dagster.yaml").read_text())

    def relocate(node):
        if isinstance(node, dict):
            return {
                key: str(home / value)
                if key == "base_dir" and isinstance(value, str) and not Path(value).is_absolute()
                else relocate(value)
                for key, value in node.items()
            }
        if isinstance(node, list):
            return [relocate(item) for item in node]
        return node

    return yaml.safe_dump(relocate(config), sort_keys=False)


def _log_tail(log: Path, chars: int = 3000) -> str:
    return log.read_text(errors="replace")[-chars:] if log.exists() else "(no log)"


def _stop(process: subprocess.Popen) -> None:
    """Stop the webserver and its code server (same process group), politely first."""
    if process.poll() is not None:
        return
    for sig, grace in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue


@pytest.fixture(scope="module")
def dagster_ui(
    _isolated_cardio_home: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[DagsterUI]:
    home = tmp_path_factory.mktemp("ui_dagster_home")
    (home / "dagster.yaml").write_text(_instance_yaml(home))
    log = home / "webserver.log"
    port = _free_port()
    env = {
        **os.environ,
        "DAGSTER_HOME": str(home),
        "CARDIO_HOME": str(_isolated_cardio_home),
    }
    # as under `make ui`: the guideline partitions are registered before the UI starts
    sync = subprocess.run(
        [str(Path(sys.executable).with_name("cardio")), "partitions", "sync"],
        cwd=paths.PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert sync.returncode == 0, sync.stdout + sync.stderr
    webserver = Path(sys.executable).with_name("dagster-webserver")
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(webserver), "-h", "127.0.0.1", "-p", str(port), "-w", "workspace.yaml"],
            cwd=paths.PROJECT_ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # own process group: _stop reaches the code server too
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            if process.poll() is not None:
                pytest.fail(f"dagster-webserver exited ({process.returncode}):\n{_log_tail(log)}")
            try:
                with urllib.request.urlopen(f"{url}/server_info", timeout=5) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"no /server_info after {START_SECONDS}s:\n{_log_tail(log)}")
            time.sleep(0.5)
        yield DagsterUI(url, home, log)
    finally:
        _stop(process)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory):
    chromium, chromedriver = _executable("chromium"), _executable("chromedriver")
    if not chromium or not chromedriver:
        pytest.skip(INSTALL_HINT)
    os.environ.setdefault("SE_OFFLINE", "true")  # never let selenium-manager go online
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=tmp_path_factory.getbasetemp())
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        # tall enough that the virtualized asset catalog renders every row
        "--window-size=1600,2400",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("ui_screenshots")


def _wait_for(driver, screenshots: Path, name: str, what: str, condition: Callable):
    """Wait for ``condition(driver)`` to be truthy; always leave a screenshot, and on timeout
    fail with the page text so the reason is visible without a browser."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        value = WebDriverWait(driver, WAIT_SECONDS, poll_frequency=0.5).until(condition)
    except TimeoutException:
        driver.save_screenshot(str(screenshots / f"{name}-timeout.png"))
        body = driver.find_element(By.TAG_NAME, "body").text
        pytest.fail(f"{what} not shown at {driver.current_url} within {WAIT_SECONDS}s:\n{body}")
    driver.save_screenshot(str(screenshots / f"{name}.png"))
    return value


def _asset_page(ui: DagsterUI, key: str, **params: str) -> str:
    query = "&".join(f"{name}={quote(value)}" for name, value in params.items())
    return f"{ui.url}/assets/{quote(key)}" + (f"?{query}" if query else "")


def _texts(driver, text: str) -> list:
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.XPATH, f"//*[normalize-space(.)='{text}']")


def _metadata_value(driver, label: str) -> str | None:
    """Text of the value cell of the metadata table row named ``label``, if shown."""
    from selenium.webdriver.common.by import By

    for cell in driver.find_elements(By.XPATH, f"//tr/td[1][normalize-space(.)='{label}']"):
        value = cell.find_elements(By.XPATH, "following-sibling::td[1]")
        if value:
            return value[0].text.strip()
    return None


def test_catalog_lists_every_pipeline_asset(browser, dagster_ui, screenshots) -> None:
    from selenium.webdriver.common.by import By

    from cardio_assets.definitions import defs

    expected = {key.to_user_string() for key in defs.resolve_all_asset_keys()}
    assert expected, "the definitions declare no assets"
    browser.get(f"{dagster_ui.url}/assets")

    def missing_links(driver):
        shown = {
            urlparse(link.get_attribute("href") or "").path.removeprefix("/assets/")
            for link in driver.find_elements(By.CSS_SELECTOR, "a[href*='/assets/']")
        }
        return expected <= shown

    _wait_for(
        browser, screenshots, "catalog", f"links to all assets {sorted(expected)}", missing_links
    )
    assert _texts(browser, "cardio_assets"), "the code location name is not shown in the catalog"


def test_asset_page_lists_the_guideline_partitions(browser, dagster_ui, screenshots) -> None:
    from cardio_assets.config import load_registry

    guidelines = list(load_registry().ids)
    assert SAMPLE_PARTITION in guidelines
    browser.get(_asset_page(dagster_ui, PARTITIONED_ASSET, view="partitions"))
    _wait_for(
        browser,
        screenshots,
        "partitions",
        f"partitions {guidelines}",
        lambda driver: all(_texts(driver, guideline) for guideline in guidelines),
    )


def test_materialization_appears_with_its_metadata(browser, dagster_ui, screenshots) -> None:
    import dagster as dg

    from cardio_assets.definitions import RESOURCES, defs
    from cardio_assets.partitions import sync_guideline_partitions

    # before: the partition page is open and shows nothing materialized
    browser.get(
        _asset_page(dagster_ui, PARTITIONED_ASSET, view="partitions", partition=SAMPLE_PARTITION)
    )
    _wait_for(
        browser,
        screenshots,
        "before-materialization",
        f"{PARTITIONED_ASSET}[{SAMPLE_PARTITION}] with no materialization",
        lambda driver: _texts(driver, "Materialized (0)") and _texts(driver, "No metadata entries"),
    )

    with dg.DagsterInstance.from_config(str(dagster_ui.dagster_home)) as instance:
        sync_guideline_partitions(instance)  # no-op: the fixture already synced them
        result = dg.materialize(
            [*defs.assets, *(defs.asset_checks or [])],
            instance=instance,
            resources=RESOURCES,
            selection=dg.AssetSelection.assets(*MATERIALIZED),
            partition_key=SAMPLE_PARTITION,
        )
    assert result.success
    metadata = {
        asset: result.asset_materializations_for_node(asset)[0].metadata for asset in MATERIALIZED
    }
    counts = {
        "table_rows": ("rows", metadata["table_rows"]["rows"].value),
        "tagged_rows": ("tagged_rows", metadata["tagged_rows"]["tagged_rows"].value),
    }
    assert all(count > 0 for _, count in counts.values()), counts

    for asset, (label, count) in counts.items():
        if asset == PARTITIONED_ASSET:
            browser.refresh()  # the page opened above, reloaded
        else:
            browser.get(
                _asset_page(dagster_ui, asset, view="partitions", partition=SAMPLE_PARTITION)
            )
        _wait_for(
            browser,
            screenshots,
            f"{asset}-materialized",
            f"metadata {label}={count} of {asset}[{SAMPLE_PARTITION}]",
            lambda driver, label=label, count=count: _metadata_value(driver, label) == str(count),
        )
        # the run that made it is linked by its short id, and the partition counts moved
        assert _texts(browser, result.run_id[:8]), f"run {result.run_id} not shown for {asset}"
        assert _texts(browser, "Materialized (1)"), f"{asset}: partition status not updated"
