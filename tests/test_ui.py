"""The Dagster UI in a real headless Chromium, against `make ui`'s stack.

`dagster dev` (webserver + daemon, QueuedRunCoordinator) runs as `make ui` runs it, on a
free loopback port with a temporary instance (tests/dagster_dev_fixtures.py), so the test
never touches var/dagster. It does what a user of the UI does: every pipeline asset in the
catalog, the guideline partitions on an asset page, then from the asset graph Materialize
all -> one guideline partition -> Launch 1 run, finds the run shown as Success on its page
and on the Runs page, and the partition's metadata and its asset checks shown as passed;
then the same with two partitions -> Launch backfill, and the backfill shown as succeeded.
While a run works the browser waits on a blank page (see _idle_until_ended). A screenshot
of every step is kept in var/test-artifacts/ui/.

Needs Debian's chromium + chromium-driver (`make test` installs them when run as root).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote, urlparse

import dagster as dg
import pytest

from cardio_assets import paths
from tests.dagster_dev_fixtures import DagsterDev

pytestmark = pytest.mark.ui

SAMPLE_PARTITION = "ccs-sample-docling"
PARTITIONED_ASSET = "table_rows"
ONE_RUN_PARTITION = "ccs-sample"  # launched as one run of the whole pipeline
BACKFILL_PARTITIONS = ["hf-sample", "hf-sample-docx"]  # launched as one backfill
WAIT_SECONDS = 180  # DOM waits; generous for 2 shared cores
RUN_SECONDS = 1200  # a whole-pipeline run or backfill, queued behind others on 2 cores

INSTALL_HINT = (
    "headless Chromium is needed for the UI test: run `make browser` as root, or "
    "`sudo apt-get install -y chromium chromium-driver`"
)


def _executable(name: str) -> str | None:
    return shutil.which(name) or (f"/usr/bin/{name}" if Path(f"/usr/bin/{name}").exists() else None)


@pytest.fixture(scope="module")
def dagster_ui(dagster_dev) -> DagsterDev:
    """`make ui`'s stack (webserver + daemon), shared with the automation tests."""
    return dagster_dev


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
def screenshots() -> Path:
    """Screenshots of every step, kept as test artifacts (var/ is git-ignored)."""
    folder = paths.PROJECT_ROOT / "var" / "test-artifacts" / "ui"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _wait_for(
    driver, screenshots: Path, name: str, what: str, condition: Callable, timeout: float = 0
):
    """Wait for ``condition(driver)`` to be truthy; always leave a screenshot, and on timeout
    fail with the page text so the reason is visible without a browser."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        value = WebDriverWait(driver, timeout or WAIT_SECONDS, poll_frequency=1.0).until(condition)
    except TimeoutException:
        driver.save_screenshot(str(screenshots / f"{name}-timeout.png"))
        body = driver.find_element(By.TAG_NAME, "body").text
        pytest.fail(
            f"{what} not shown at {driver.current_url} within {timeout or WAIT_SECONDS}s:\n{body}"
        )
    driver.save_screenshot(str(screenshots / f"{name}.png"))
    return value


def _asset_page(ui: DagsterDev, key: str, **params: str) -> str:
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


# --- launching from the UI --------------------------------------------------------------

_JS_BUTTON = """
const bs = [...document.querySelectorAll('button')].filter(
    b => b.innerText.trim().startsWith(arguments[0]) && !b.disabled);
if (bs.length && arguments[1]) bs[0].click();
return bs.length > 0;
"""
_JS_OPEN_PARTITIONS = """
const target = [...document.querySelectorAll('[role=dialog] [aria-haspopup=dialog]')].find(
    e => e.innerText.includes('Select a partition') || e.querySelector('[class*=TagSelector]'));
if (!target) return false;
target.click();
return true;
"""
# tick a partition's checkbox in the open partition list (the row holding its tooltip)
_JS_PICK = """
const item = document.querySelector('.dagster-popover [data-tooltip="' + arguments[0] + '"]');
if (!item) return null;
let row = item.parentElement;
while (row && !row.querySelector('input[type=checkbox]')) row = row.parentElement;
if (!row) return null;
const box = row.querySelector('input[type=checkbox]');
if (!box.checked) row.querySelector('label, input[type=checkbox]').click();
return row.querySelector('input[type=checkbox]').checked;
"""
# a leaf element reading exactly arguments[0]: cheap on a run page with thousands of event
# rows, where an XPath over every element's normalized text takes minutes on 2 busy cores
_JS_LEAF_TEXT = """
return [...document.querySelectorAll('body *')].some(
    e => e.childElementCount === 0 && e.textContent.trim() === arguments[0]);
"""
# click the checkbox whose label reads arguments[0] (once: a second click unticks it)
_JS_TICK_LABEL = """
const label = [...document.querySelectorAll('label')].find(
    l => l.textContent.trim() === arguments[0]);
const box = label && (label.querySelector('input[type=checkbox]')
    || document.getElementById(label.htmlFor));
if (box && !box.checked) (label.querySelector('input') ? box : label).click();
return !!box;
"""
_JS_DIALOG_TEXT = "const x = document.querySelector('[role=dialog]'); return x ? x.innerText : ''"


def _launch_from_graph(driver, ui: DagsterDev, screenshots: Path, step: str, partitions: list[str]):
    """Asset graph -> Materialize all… -> Custom partitions -> tick ``partitions``; returns
    once the launch button for them is shown (not yet clicked)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.get(f"{ui.url}/asset-groups")
    _wait_for(
        driver,
        screenshots,
        f"{step}-1-graph",
        "the asset graph with its Materialize all button",
        lambda d: d.execute_script(_JS_BUTTON, "Materialize all", False),
    )
    driver.execute_script(_JS_BUTTON, "Materialize all", True)
    _wait_for(
        driver,
        screenshots,
        f"{step}-2-dialog",
        "the launch dialog's partition selector",
        lambda d: d.execute_script(_JS_OPEN_PARTITIONS),
    )
    for partition in partitions:
        _wait_for(
            driver,
            screenshots,
            f"{step}-3-pick-{partition}",
            f"partition {partition} ticked in the partition list",
            lambda d, p=partition: d.execute_script(_JS_PICK, p),
        )
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)  # closes the list only
    expected = "Launch 1 run" if len(partitions) == 1 else "Launch backfill"
    _wait_for(
        driver,
        screenshots,
        f"{step}-4-selected",
        f"'{len(partitions)} partition' selected and a '{expected}' button",
        lambda d: (
            f"{len(partitions)} partition" in d.execute_script(_JS_DIALOG_TEXT)
            and d.execute_script(_JS_BUTTON, expected, False)
        ),
    )
    return expected


def _instance(ui: DagsterDev) -> dg.DagsterInstance:
    return dg.DagsterInstance.from_config(str(ui.dagster_home))


def _new_runs(ui: DagsterDev, known: set[str], **tags: str) -> list[dg.DagsterRun]:
    with _instance(ui) as instance:
        return [r for r in instance.get_runs(dg.RunsFilter(tags=tags)) if r.run_id not in known]


def _last_materialization(ui: DagsterDev, asset: str, partition: str):
    with _instance(ui) as instance:
        found = instance.fetch_materializations(
            dg.AssetRecordsFilter(asset_key=dg.AssetKey(asset), asset_partitions=[partition]),
            limit=1,
        )
    return found.records[0] if found.records else None


def _idle_until_ended(browser, ui: DagsterDev, ended: Callable) -> None:
    """Wait for ``ended(instance)`` with the browser on a blank page. An open run or backfill
    page polls the webserver and re-renders its event log all along, which on 2 shared
    cores slows the very run it shows; the page is opened and judged once the instance
    says the run or backfill is over."""
    browser.get("about:blank")
    deadline = time.monotonic() + RUN_SECONDS
    while True:
        with _instance(ui) as instance:
            if ended(instance):
                return
        assert time.monotonic() < deadline, f"not ended within {RUN_SECONDS}s"
        time.sleep(3)


def test_materialize_one_partition_from_the_ui(browser, dagster_ui, screenshots) -> None:
    with _instance(dagster_ui) as instance:
        before = {r.run_id for r in instance.get_runs()}
    button = _launch_from_graph(browser, dagster_ui, screenshots, "run", [ONE_RUN_PARTITION])
    browser.execute_script(_JS_BUTTON, button, True)

    def launched():
        runs = _new_runs(dagster_ui, before, **{"dagster/partition": ONE_RUN_PARTITION})
        return runs[0] if runs else None

    deadline = time.monotonic() + WAIT_SECONDS
    while not (run := launched()):
        assert time.monotonic() < deadline, "no run launched from the UI"
        time.sleep(1)
    _idle_until_ended(browser, dagster_ui, lambda i: i.get_run_by_id(run.run_id).is_finished)
    # the run's own page (Runs -> the run) until it says Success
    browser.get(f"{dagster_ui.url}/runs/{run.run_id}")
    _wait_for(
        browser,
        screenshots,
        "run-5-succeeded",
        f"run {run.run_id[:8]} shown as Success",
        lambda d: d.execute_script(_JS_LEAF_TEXT, "Success"),
        timeout=RUN_SECONDS,
    )
    browser.get(f"{dagster_ui.url}/runs")
    _wait_for(
        browser,
        screenshots,
        "run-6-runs-page",
        f"run {run.run_id[:8]} listed on the Runs page",
        lambda d: _texts(d, run.run_id[:8]),
    )
    record = _last_materialization(dagster_ui, PARTITIONED_ASSET, ONE_RUN_PARTITION)
    assert record is not None and record.run_id == run.run_id
    rows = record.asset_materialization.metadata["rows"].value
    assert rows > 0
    browser.get(
        _asset_page(dagster_ui, PARTITIONED_ASSET, view="partitions", partition=ONE_RUN_PARTITION)
    )
    _wait_for(
        browser,
        screenshots,
        "run-7-metadata",
        f"metadata rows={rows} of {PARTITIONED_ASSET}[{ONE_RUN_PARTITION}]",
        lambda d: _metadata_value(d, "rows") == str(rows),
    )
    checks = ["rows_found", "expected_rows_per_table", "class_and_level_found"]
    browser.get(_asset_page(dagster_ui, PARTITIONED_ASSET, view="checks"))
    _wait_for(
        browser,
        screenshots,
        "run-8-checks",
        f"asset checks {checks} shown as passed",
        lambda d: all(_texts(d, c) for c in checks) and len(_texts(d, "Passed")) >= len(checks),
    )


def test_backfill_two_partitions_from_the_ui(browser, dagster_ui, screenshots) -> None:
    with _instance(dagster_ui) as instance:
        before = {b.backfill_id for b in instance.get_backfills()}
    button = _launch_from_graph(browser, dagster_ui, screenshots, "backfill", BACKFILL_PARTITIONS)
    browser.execute_script(_JS_BUTTON, button, True)

    def launched():
        with _instance(dagster_ui) as instance:
            new = [b for b in instance.get_backfills() if b.backfill_id not in before]
        return new[0] if new else None

    deadline = time.monotonic() + WAIT_SECONDS
    while not (backfill := launched()):
        assert time.monotonic() < deadline, "no backfill launched from the UI"
        time.sleep(1)
    browser.get(f"{dagster_ui.url}/runs/b/{backfill.backfill_id}")
    _wait_for(
        browser,
        screenshots,
        "backfill-5-in-progress",
        f"backfill {backfill.backfill_id} page with its status tag",
        lambda d: any(d.execute_script(_JS_LEAF_TEXT, w) for w in ("In progress", "Succeeded")),
    )
    # The instance says when the backfill has ended: a run of it shown as "Success" on the
    # page is not the backfill's end, so the page is judged only after that.
    _idle_until_ended(
        browser,
        dagster_ui,
        lambda i: (
            i.get_backfill(backfill.backfill_id).status.value
            not in ("REQUESTED", "CANCELING", "FAILING")
        ),
    )
    with _instance(dagster_ui) as instance:
        done = instance.get_backfill(backfill.backfill_id)
    assert done.status.value == "COMPLETED_SUCCESS", done.status
    browser.get(f"{dagster_ui.url}/runs/b/{backfill.backfill_id}")
    _wait_for(
        browser,
        screenshots,
        "backfill-6-completed",
        f"backfill {backfill.backfill_id} shown as succeeded",
        lambda d: d.execute_script(_JS_LEAF_TEXT, "Succeeded"),  # COMPLETED_SUCCESS's tag
    )
    with _instance(dagster_ui) as instance:
        runs = instance.get_runs(dg.RunsFilter(tags={"dagster/backfill": backfill.backfill_id}))
    assert all(r.is_success for r in runs), [(r.run_id, r.status) for r in runs]
    for partition in BACKFILL_PARTITIONS:
        for asset in ("table_rows", "extracted_rules", "neo4j_graph"):
            record = _last_materialization(dagster_ui, asset, partition)
            assert record is not None and record.run_id in {r.run_id for r in runs}, (
                asset,
                partition,
            )
    browser.get(f"{dagster_ui.url}/runs")
    _wait_for(
        browser,
        screenshots,
        "backfill-7-runs-page",
        f"backfill {backfill.backfill_id} listed on the Runs page",
        lambda d: d.execute_script(_JS_LEAF_TEXT, backfill.backfill_id),
    )
    # the Runs page folds a backfill's runs into its row until asked to show them
    browser.execute_script(_JS_TICK_LABEL, "Show runs within backfills")
    _wait_for(
        browser,
        screenshots,
        "backfill-8-runs-within",
        "the backfill's runs listed on the Runs page",
        lambda d: all(d.execute_script(_JS_LEAF_TEXT, r.run_id[:8]) for r in runs),
    )
