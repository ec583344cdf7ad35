"""``cardio ask``: patient-specific answers over the extracted rules, with their evidence.

Pure logic, no Dagster imports. The pieces, in the order a question flows through them:

- ``cardio_assets/logic/patients.py``: a FHIR R4 Bundle or the small JSON form -> ``PatientInput``
  (facts as written, with the resource or field each came from, and every input problem).
- ``facts.py``: ground those facts with the pipeline's own grounding (search + per-role
  filters) and the terminology store's is-a closure -> ``PatientContext``.
- ``units.py``: unit text -> UCUM -> pint, analyte molar masses, and how a rule's threshold
  reads (paired blood pressure, a second unit given in brackets).
- ``evaluate.py`` (Python over extracted_rules) and ``cypher_engine.py`` (Cypher over the
  Neo4j graph): the same three-valued semantics, written twice, tested to agree.
- ``answer.py``: groups (applicable / possibly applicable / excluded), ordering, evidence,
  the plain-text rendering and the JSON form.
"""
