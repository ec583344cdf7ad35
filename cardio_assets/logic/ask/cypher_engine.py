"""The Cypher engine: the same question answered over the Neo4j graph.

Why a second engine: the graph is the product; if a question answered over it differs from
the one answered over extracted_rules, the load lost logic (a dropped edge, a wrong
``negated``, a threshold in the wrong unit). tests/test_ask_engines.py asks both.

What runs where. In Cypher, over the current load of each guideline
(``load_id = g.current_load_id``): finding each Recommendation's Decision tree, matching
every CHECKS_FOR / EVALUATES concept against the patient's facts (is-a closure ids and
names), comparing values with the operator and threshold on the edge, and the Kleene
AND (min) / OR (max) / NOT (2 - x) up the tree, deepest Decision first. In Python, before
the query: unit conversion (pint has no Cypher twin), so each measurement travels with its
value in every unit the graph's EVALUATES edges use, and the reading of each distinct
threshold span (paired blood pressure, a threshold restated in another unit), fetched from
the graph by a first query. Every value is a query parameter; the query text is constant.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardio_assets.logic.ask.config import AskConfig
from cardio_assets.logic.ask.facts import PatientContext, value_in
from cardio_assets.logic.ask.model import (
    ActionInfo,
    DecisionResult,
    Evidence,
    LeafResult,
    RuleInfo,
    RuleResult,
)
from cardio_assets.logic.ask.units import UnitError, Units, read_threshold, rounded
from cardio_assets.neo4j_driver import neo4j_module

neo4j = neo4j_module()  # without the driver's optional pandas support (neo4j_driver.py)

_CURRENT = """
MATCH (g:Guideline)
WHERE g.current_load_id IS NOT NULL AND ($guidelines IS NULL OR g.id IN $guidelines)
"""

Q_GUIDELINES = _CURRENT + "RETURN g.id AS id ORDER BY id"

Q_SPECS = (
    _CURRENT
    + """
MATCH (d:Decision)-[e:EVALUATES]->(c:Concept)
WHERE d.guideline = g.id AND d.load_id = g.current_load_id
RETURN DISTINCT coalesce(e.term, '') AS term, e.normalized AS normalized,
       c.snomed_id AS sid, e.operator AS operator, e.threshold AS threshold, e.unit AS unit
"""
)

# What does not depend on the patient, read once per engine: rule, evidence, actions, and
# what each CHECKS_FOR / EVALUATES edge tests.
Q_STATIC = (
    _CURRENT
    + """
MATCH (r:Recommendation)
WHERE r.guideline = g.id AND r.load_id = g.current_load_id
CALL (r) {
  OPTIONAL MATCH (r)-[a:RECOMMENDS_PROCEDURE|RECOMMENDS_MEDICATION]->(x:Concept)
  RETURN collect(CASE WHEN a IS NULL THEN NULL ELSE {
    role: CASE type(a) WHEN 'RECOMMENDS_PROCEDURE' THEN 'Procedure' ELSE 'Medication' END,
    text: a.term, normalized: a.normalized, snomed_id: x.snomed_id,
    preferred_term: x.preferred_term, class: a.class, level: a.level,
    polarity: a.polarity} END) AS actions
}
CALL (r) {
  OPTIONAL MATCH (r)<-[:LEADS_TO*1..]-(:Decision)-[e:CHECKS_FOR|EVALUATES]->(c:Concept)
  RETURN collect(CASE WHEN e IS NULL THEN NULL ELSE {
    eid: elementId(e),
    kind: CASE type(e) WHEN 'CHECKS_FOR' THEN 'condition' ELSE 'parameter' END,
    text: e.term, normalized: e.normalized, snomed_id: c.snomed_id,
    preferred_term: c.preferred_term, negated: coalesce(e.negated, false),
    operator: e.operator, threshold: e.threshold, unit: e.unit} END) AS tests
}
OPTIONAL MATCH (r)-[:DERIVED_FROM]->(row:SourceRow)<-[:HAS_ROW]-(t:SourceTable)
RETURN r.rule_id AS rule_id, r.guideline AS guideline, r.class AS class, r.level AS level,
       r.polarity AS polarity, r.table_id AS table_id, r.row_id AS row_id, r.pages AS pages,
       g.title AS guideline_title, t.title AS table_title, row.row_index AS row_index,
       row.section AS section, coalesce(row.text, r.text) AS text, actions, tests
"""
)

# One leaf = one CHECKS_FOR / EVALUATES edge of a Decision; TRUE=2, UNKNOWN=1, FALSE=0.
Q_ASK = (
    _CURRENT
    + """
MATCH (r:Recommendation)
WHERE r.guideline = g.id AND r.load_id = g.current_load_id
CALL (r) {
  OPTIONAL MATCH (r)<-[:LEADS_TO*1..]-(d:Decision)
  OPTIONAL MATCH (d)-[e:CHECKS_FOR|EVALUATES]->(c:Concept)
  WITH d, e, c, c.snomed_id AS sid, e.normalized AS name
  WITH d, e, c, sid, name,
       head([f IN $present WHERE (sid IS NOT NULL AND sid IN f.ids) OR name IN f.names | f.i])
         AS fact,
       head([f IN $absent WHERE (sid IS NOT NULL AND sid IN f.ids) OR name IN f.names | f.i])
         AS against,
       head([m IN $measurements WHERE (sid IS NOT NULL AND sid IN m.ids) OR name IN m.names])
         AS m,
       head([x IN $readings WHERE x.term = coalesce(e.term, '') AND x.normalized = name
             AND x.sid = coalesce(sid, '') AND x.operator = e.operator
             AND x.unit = coalesce(e.unit, '') AND x.threshold = e.threshold]) AS rd,
       head([m IN $measurements WHERE m.component = 'systolic']) AS sys,
       head([m IN $measurements WHERE m.component = 'diastolic']) AS dia
  WITH d, e, c, fact, against, m, rd, sys, dia,
       CASE WHEN rd IS NULL OR m IS NULL THEN NULL
            ELSE head([a IN rd.alts WHERE a.ucum = m.ucum]) END AS alt
  WITH d, e, c, fact, against, m, rd, sys, dia, alt,
       CASE rd.mode
         WHEN 'value' THEN [{
           v: CASE WHEN alt IS NOT NULL THEN m.value
                   ELSE head([x IN coalesce(m.values, []) WHERE x.unit = coalesce(e.unit, '')
                              | x.value]) END,
           t: CASE WHEN alt IS NOT NULL THEN alt.value ELSE e.threshold END,
           low: CASE WHEN alt IS NOT NULL THEN alt.low ELSE e.threshold_low END,
           high: CASE WHEN alt IS NOT NULL THEN alt.high ELSE e.threshold_high END}]
         WHEN 'systolic' THEN [{
           v: head([x IN coalesce(sys.values, []) WHERE x.unit = coalesce(e.unit, '') | x.value]),
           t: e.threshold}]
         WHEN 'paired' THEN [
           {v: head([x IN coalesce(sys.values, []) WHERE x.unit = coalesce(e.unit, '') | x.value]),
            t: e.threshold},
           {v: head([x IN coalesce(dia.values, []) WHERE x.unit = coalesce(e.unit, '') | x.value]),
            t: rd.second}]
         ELSE [] END AS parts
  WITH d, e, c, fact, against, m, rd, sys, dia, alt,
       [p IN parts | CASE
          WHEN p.v IS NULL THEN 1
          WHEN (CASE e.operator
                  WHEN '<' THEN p.v < p.t
                  WHEN '<=' THEN p.v <= p.t
                  WHEN '>' THEN p.v > p.t
                  WHEN '>=' THEN p.v >= p.t
                  WHEN '=' THEN abs(p.v - p.t) <= 1.0e-9 * CASE WHEN abs(p.t) > 1.0
                                                              THEN abs(p.t) ELSE 1.0 END
                  WHEN 'between' THEN p.v >= p.low AND p.v <= p.high
                END) THEN 2
          ELSE 0 END] AS pv,
       CASE WHEN fact IS NOT NULL AND against IS NULL THEN 2
            WHEN against IS NOT NULL AND fact IS NULL THEN 0
            ELSE 1 END AS has
  WITH d, CASE WHEN e IS NULL THEN NULL ELSE {
         eid: elementId(e), decision: d.path,
         value: CASE
           WHEN type(e) = 'CHECKS_FOR' THEN
             CASE WHEN e.negated THEN 2 - has ELSE has END
           WHEN rd IS NULL THEN 1
           WHEN rd.mode = 'paired' AND e.operator IN ['>', '>='] THEN
             reduce(x = 0, v IN pv | CASE WHEN v > x THEN v ELSE x END)
           WHEN rd.mode = 'paired' THEN reduce(x = 2, v IN pv | CASE WHEN v < x THEN v ELSE x END)
           ELSE pv[0] END,
         fact: CASE WHEN type(e) = 'CHECKS_FOR' THEN fact END,
         against: CASE WHEN type(e) = 'CHECKS_FOR' THEN against END,
         measurement: CASE WHEN rd.mode = 'value' THEN m.i END,
         systolic: CASE WHEN rd.mode IN ['systolic', 'paired'] THEN sys.i END,
         diastolic: CASE WHEN rd.mode = 'paired' THEN dia.i END,
         alternative: alt IS NOT NULL} END AS leaf
  WITH d, collect(leaf) AS leaves
  ORDER BY d.depth DESC, d.path
  RETURN collect(CASE WHEN d IS NULL THEN NULL
                      ELSE {path: d.path, op: d.op, leaves: leaves} END) AS ds
}
WITH g, r, ds,
     reduce(acc = [], x IN ds | acc + [{
       path: x.path, op: x.op,
       v: reduce(best = CASE x.op WHEN 'AND' THEN 2 ELSE 0 END,
                 v IN [l IN x.leaves | l.value]
                      + [y IN acc WHERE y.path STARTS WITH x.path + '.'
                         AND size(split(y.path, '.')) = size(split(x.path, '.')) + 1 | y.v] |
                 CASE WHEN (x.op = 'AND' AND v < best) OR (x.op = 'OR' AND v > best)
                      THEN v ELSE best END)}]) AS dvals
RETURN r.rule_id AS rule_id, r.guideline AS guideline,
       [x IN ds | {path: x.path, op: x.op}] AS decisions,
       reduce(acc = [], x IN ds | acc + x.leaves) AS leaves, dvals
ORDER BY guideline, rule_id
"""
)


def _number_key(value: Any) -> Any:
    return [float(v) for v in value] if isinstance(value, list) else float(value)


class CypherEngine:
    """Asks Neo4j over Bolt; one query per patient after one set-up query per engine."""

    engine = "cypher"

    def __init__(
        self,
        driver: neo4j.Driver,
        units: Units,
        config: AskConfig,
        *,
        guidelines: Sequence[str] | None = None,
        database: str = "neo4j",
    ) -> None:
        self.driver = driver
        self.units = units
        self.config = config
        self.database = database
        self.guidelines = list(guidelines) if guidelines else None
        self.loaded = [r["id"] for r in self._run(Q_GUIDELINES, guidelines=self.guidelines)]
        self.readings: list[dict[str, Any]] = []
        self.units_used: set[str] = set()
        for spec in self._run(Q_SPECS, guidelines=self.guidelines):
            reading = read_threshold(
                spec["term"], spec["normalized"], spec["sid"], spec["operator"],
                spec["threshold"], spec["unit"], self.units,
            )  # fmt: skip
            alts = []
            for code, value in reading.alternatives:
                low, high = value if isinstance(value, tuple) else (None, None)
                alts.append(
                    {
                        "ucum": code,
                        "value": None if low is not None else value,
                        "low": low,
                        "high": high,
                    }
                )
            self.readings.append(
                {
                    "term": spec["term"],
                    "normalized": spec["normalized"],
                    "sid": spec["sid"] or "",
                    "operator": spec["operator"],
                    "unit": spec["unit"] or "",
                    "threshold": _number_key(spec["threshold"]),
                    "mode": reading.mode,
                    "second": reading.second,
                    "alts": alts,
                }
            )
            self.units_used.add(spec["unit"] or "")
        self._load_static()

    def _run(self, query: str, **params: Any) -> list[neo4j.Record]:
        return self.driver.execute_query(
            query, params, database_=self.database, routing_=neo4j.RoutingControl.READ
        ).records

    def parameters(self, ctx: PatientContext) -> dict[str, Any]:
        """The patient as query parameters (values converted to every unit in use)."""
        present = [
            {"i": f.index, "ids": f.ids, "names": f.names}
            for f in ctx.facts
            if f.status == "present"
        ]
        absent = [
            {"i": f.index, "ids": f.ids, "names": f.names}
            for f in ctx.facts
            if f.status == "absent"
        ]
        measurements = []
        for m in ctx.measurements:
            values = []
            for unit in sorted(self.units_used):
                try:
                    values.append(
                        {"unit": unit, "value": value_in(m, unit or None, self.units, self.config)}
                    )
                except UnitError:
                    continue
            measurements.append(
                {
                    "i": m.index,
                    "ids": m.ids,
                    "names": m.names,
                    "component": m.component,
                    "ucum": m.ucum,
                    "value": rounded(m.value),
                    "values": values,
                }
            )
        return {
            "guidelines": self.guidelines,
            "present": present,
            "absent": absent,
            "measurements": measurements,
            "readings": self.readings,
        }

    def _load_static(self) -> None:
        """Rule metadata, evidence and each test edge, keyed for the per-patient query."""
        self.infos: dict[str, RuleInfo] = {}
        self.tests: dict[str, dict[str, Any]] = {}
        for rec in self._run(Q_STATIC, guidelines=self.guidelines):
            text = rec["text"] or ""
            lowered = text.lower()
            actions = sorted(
                (ActionInfo.model_validate(a) for a in rec["actions"]),
                key=lambda a: (lowered.find(a.text.lower()) % (len(lowered) + 1), a.normalized),
            )
            self.infos[rec["rule_id"]] = RuleInfo(
                rule_id=rec["rule_id"],
                guideline=rec["guideline"],
                class_=rec["class"],
                level=rec["level"],
                polarity=rec["polarity"] or "recommended",
                actions=actions,
                evidence=Evidence(
                    guideline=rec["guideline"],
                    guideline_title=rec["guideline_title"],
                    table_id=rec["table_id"],
                    table_title=rec["table_title"],
                    row_id=rec["row_id"],
                    row_index=rec["row_index"],
                    pages=list(rec["pages"] or []),
                    section=rec["section"],
                    text=text,
                ),
            )
            for test in rec["tests"]:
                self.tests[test.pop("eid")] = test

    def evaluate(self, ctx: PatientContext) -> list[RuleResult]:
        records = self._run(Q_ASK, **self.parameters(ctx))
        return [self._result(rec) for rec in records]

    def _result(self, rec: neo4j.Record) -> RuleResult:
        info = self.infos[rec["rule_id"]]
        decisions = rec["decisions"]
        if not decisions:
            return RuleResult(rule=info, value=1, has_logic=False, engine="cypher")
        values = {v["path"]: v["v"] for v in rec["dvals"]}
        leaves = sorted(
            (
                LeafResult.model_validate({**self.tests[leaf.pop("eid")], **leaf})
                for leaf in rec["leaves"]
            ),
            key=LeafResult.sort_key,
        )
        return RuleResult(
            rule=info,
            value=values["0"],
            decisions=sorted(
                (
                    DecisionResult(path=d["path"], op=d["op"], value=values[d["path"]])
                    for d in decisions
                ),
                key=lambda d: d.path,
            ),
            leaves=leaves,
            engine="cypher",
        )
