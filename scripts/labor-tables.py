#!/usr/bin/env python3
"""Rewrites the per-jurisdiction tables under "## Shipped tables" in docs/labor-rules.md from the
rule tables in etc/labor/, so the documentation says what the engine loads. A developer tool (not
run by CI): run it after changing a table and commit both.

Usage: python3 scripts/labor-tables.py [--check]   (--check: exit 1 if the docs are out of date)
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LABOR = os.path.join(ROOT, "etc", "labor")
DOC = os.path.join(ROOT, "docs", "labor-rules.md")


def hours(minutes):
    h = minutes / 60
    return f"{h:g}"


def pay_text(p):
    unit, amount = p["unit"], p["amount"]
    if unit == "cents":
        return f"${amount // 100}.{amount % 100:02d}"
    if unit == "hours_of_pay":
        return f"{amount} h of pay"
    return f"{amount} x rate per affected hour"


def value_text(kind, q):
    if kind in ("weekly_overtime", "daily_overtime", "double_time"):
        return f"over {hours(q['thresholdMinutes'])} h: {q['multiplier']} x"
    if kind == "seventh_day":
        span = f"from {hours(q['overMinutes'])} h"
        if "upToMinutes" in q:
            span += f" to {hours(q['upToMinutes'])} h"
        return f"day {q['consecutiveDay']}, {span}: {q['multiplier']} x"
    if kind == "meal_break":
        if "requiredFromWorkMinutes" in q:
            t = f"{q['breakMinutes']} min for >= {hours(q['requiredFromWorkMinutes'])} h"
        else:
            t = f"{q['breakMinutes']} min after {hours(q['afterWorkMinutes'])} h"
        if "forWorkOverMinutes" in q:
            t += f" (days over {hours(q['forWorkOverMinutes'])} h)"
        if "forWorkUpToMinutes" in q:
            t += f" (days up to {hours(q['forWorkUpToMinutes'])} h)"
        if "earliestAfterWorkMinutes" in q:
            t += (f"; starts between {hours(q['earliestAfterWorkMinutes'])} h and "
                  f"{hours(q['afterWorkMinutes'])} h of work")
        elif "requiredFromWorkMinutes" in q:
            t += f"; starts by {hours(q['afterWorkMinutes'])} h of work"
        if "waivableIfWorkAtMostMinutes" in q:
            t += f"; waivable if day <= {hours(q['waivableIfWorkAtMostMinutes'])} h"
        if "premium" in q:
            t += f"; missed: {pay_text(q['premium'])}"
        return t
    if kind == "rest_break":
        t = f"{q['breakMinutes']} min per {hours(q['perWorkMinutes'])} h"
        t += " (whole periods)" if q.get("fraction") == "whole" else " (or major part)"
        if "maxWorkWithoutRestMinutes" in q:
            t += f"; no more than {hours(q['maxWorkWithoutRestMinutes'])} h without one"
        if "notRequiredBelowMinutes" in q:
            t += f"; none under {hours(q['notRequiredBelowMinutes'])} h"
        if "premium" in q:
            t += f"; missed: {pay_text(q['premium'])}"
        return t
    if kind == "minor_hours":
        parts = [f"ages {q['minAge']}-{q['maxAge']}"]
        for key, label in (("schoolDayMaxMinutes", "school day"),
                           ("schoolWeekMaxMinutes", "school week"),
                           ("nonSchoolDayMaxMinutes", "non-school day"),
                           ("nonSchoolWeekMaxMinutes", "non-school week")):
            if key in q:
                parts.append(f"{label} {hours(q[key])} h")
        if "beforeSchoolDayMaxMinutes" in q:
            parts.append(f"day before a school day (not Sunday) {hours(q['beforeSchoolDayMaxMinutes'])} h")
        if "maxDaysPerWeek" in q:
            parts.append(f"{q['maxDaysPerWeek']} days a week")
        parts.append(f"{q['windowStart']}-{q['windowEnd']}")
        if "beforeNonSchoolDayWindowEnd" in q:
            parts.append(f"until {q['beforeNonSchoolDayWindowEnd']} before a non-school day")
        if "nonSchoolWeekWindowEnd" in q:
            parts.append(f"until {q['nonSchoolWeekWindowEnd']} in a non-school week")
        if "summerWindowEnd" in q:
            t = f"until {q['summerWindowEnd']} from {q['summerFrom']} to {q['summerTo']}"
            if q.get("summerInNonSchoolWeeksOnly"):
                t += " in a non-school week"
            parts.append(t)
        if q.get("notDuringSchoolHours"):
            parts.append("not during school hours")
        return "; ".join(parts)
    if kind == "advance_notice":
        if q["measuredTo"] == "first_day_of_schedule":
            return f"{q['days']} calendar days before the schedule's first day"
        return f"{q['days']} days ({q['days'] * 24} h) before each shift"
    if kind == "change_premium":
        lines = []
        for c in q["cases"]:
            t = c["change"]
            if "minChangeMinutes" in c:
                t += f" (>{c['minChangeMinutes']} min)"
            if "noticeAtLeastHours" in c:
                t += f" >={c['noticeAtLeastHours']}h"
            t += f" <{c['noticeLessThanHours']}h: {pay_text(c['pay'])}"
            lines.append(t)
        return "<br>".join(lines)
    if kind == "min_rest_between_shifts":
        t = f"{hours(q['minRestMinutes'])} h"
        t += " after the previous day's shift" if q["restFrom"] == "previous_calendar_day" \
            else " after the last shift"
        if q["consentRequired"]:
            t += "; consent required"
        if "premium" in q:
            t += f"; premium {pay_text(q['premium'])}"
            if q.get("premiumOn") == "whole_shift":
                t = t.replace("per affected hour", "on the whole later shift")
        return t
    if kind == "right_to_decline_added_hours":
        return "written consent" if q.get("writtenConsentRequired") else "may decline"
    if kind == "station_min_age":
        return f"`{q['stationTag']}`: {q['minAge']}"
    if kind == "station_certification":
        t = f"`{q['stationTag']}`: `{q['certification']}`"
        if "graceDaysAfterHire" in q:
            t += f"; {q['graceDaysAfterHire']} days after hire"
        return t
    raise SystemExit(f"labor-tables: unknown kind {kind}")


def covers_text(rule):
    alts = rule.get("applicability") or []
    if not alts:
        return "all"
    out = []
    for a in alts:
        sizes = []
        if "minEmployeesGlobal" in a:
            sizes.append(f">={a['minEmployeesGlobal']} employees")
        if "minLocationsGlobal" in a:
            sizes.append(f">={a['minLocationsGlobal']} locations")
        if "minEmployeesInJurisdiction" in a:
            sizes.append(f">={a['minEmployeesInJurisdiction']} local employees")
        t = ",".join(a.get("industries", [])) or "any industry"
        if sizes:
            t += f" ({', '.join(sizes)})"
        out.append(t)
    return "; ".join(out)


# The order of the docs: federal, then each state followed by its cities, larger places first.
ORDER = ["us", "us-ca", "us-ca-los-angeles", "us-ca-san-francisco", "us-ca-berkeley",
         "us-ca-emeryville", "us-ny", "us-ny-nyc", "us-wa", "us-wa-seattle", "us-il",
         "us-il-chicago", "us-il-evanston", "us-or", "us-pa", "us-pa-philadelphia"]


def jurisdiction_order(files):
    rank = {code: i for i, code in enumerate(ORDER)}
    return sorted(files, key=lambda f: (rank.get(f["code"], len(ORDER)), f["code"]))


def tables():
    files = []
    for name in sorted(os.listdir(LABOR)):
        if name.endswith(".json"):
            with open(os.path.join(LABOR, name), encoding="utf-8") as f:
                files.append(json.load(f))
    out = []
    for f in jurisdiction_order(files):
        out.append(f"### {f['name']} (`{f['code']}`, parent `{f.get('parent') or 'none'}`)\n")
        if not f["rules"]:
            out.append("No rules of its own yet; present so that its cities have a parent.\n")
            continue
        out.append("| id | kind | value | in force | covers | source |")
        out.append("|---|---|---|---|---|---|")
        for r in f["rules"]:
            src = r["source"]
            out.append(f"| {r['id']} | {r['kind']} | {value_text(r['kind'], r['params'])} | "
                       f"{r['effectiveFrom']} .. {r.get('effectiveTo', '')} | {covers_text(r)} | "
                       f"[{src['title']}]({src['url']}), {src['section']} |")
        out.append("")
    return "\n".join(out)


def main():
    with open(DOC, encoding="utf-8") as f:
        doc = f.read()
    head = doc.index("## Shipped tables")
    start = doc.index("\n### ", head) + 1
    end = doc.index("\n## ", start) + 1  # the generated tables end at the next section
    new = doc[:start] + tables() + "\n" + doc[end:]
    if "--check" in sys.argv:
        if new != doc:
            print("labor-tables: docs/labor-rules.md is out of date; run scripts/labor-tables.py")
            sys.exit(1)
        return
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(new)


if __name__ == "__main__":
    main()
