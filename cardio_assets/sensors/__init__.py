"""Sensors: every module here is scanned by cardio_assets/definitions.py, so a sensor
defined at module level joins the code location by itself."""
