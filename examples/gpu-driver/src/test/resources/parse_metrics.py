"""Parses a scrape with the Prometheus project's own Python parser and prints the samples as JSON.

Usage: parse_metrics.py text|openmetrics < scrape. Exits non-zero when the parser refuses it.
"""
import json
import sys

if sys.argv[1] == "openmetrics":
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
else:
    from prometheus_client.parser import text_string_to_metric_families

samples = []
for family in text_string_to_metric_families(sys.stdin.read()):
    for sample in family.samples:
        samples.append({"family": family.name, "type": family.type, "name": sample.name,
                        "labels": sample.labels, "value": sample.value})
json.dump(samples, sys.stdout)
