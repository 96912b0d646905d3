#include "store/migrations.h"

#include <algorithm>
#include <map>
#include <string>

namespace atoms {
namespace {

// The project's schema. Append only: a shipped migration never changes.
constexpr Migration kStoreMigrations[] = {
    {1, "meta", "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"},
    {2, "audit",
     "CREATE TABLE audit_entry(seq INTEGER PRIMARY KEY, entry BLOB NOT NULL,"
     " leaf_hash BLOB NOT NULL);"
     "CREATE TABLE audit_checkpoint(size INTEGER PRIMARY KEY, root BLOB NOT NULL,"
     " note TEXT NOT NULL);"
     "CREATE TABLE audit_sync(id INTEGER PRIMARY KEY CHECK(id=1), acked_size INTEGER NOT NULL,"
     " acked_root BLOB);"},
    // The site model (domain/site/site_repository.h). Instants are Unix seconds (UTC); local wall
    // times are seconds of the local_time epoch; dates are 'YYYY-MM-DD'; position keeps file order.
    {3, "site",
     "CREATE TABLE site_info(id INTEGER PRIMARY KEY CHECK(id=1), site_id TEXT NOT NULL,"
     " name TEXT NOT NULL, time_zone TEXT NOT NULL, industry TEXT NOT NULL,"
     " school_week_start INTEGER NOT NULL);"
     "CREATE TABLE site_jurisdiction(position INTEGER PRIMARY KEY, code TEXT NOT NULL);"
     "CREATE TABLE site_certification(id TEXT PRIMARY KEY, position INTEGER NOT NULL,"
     " name TEXT NOT NULL);"
     "CREATE TABLE site_station(id TEXT PRIMARY KEY, position INTEGER NOT NULL,"
     " name TEXT NOT NULL, minimum_age INTEGER);"
     "CREATE TABLE site_station_certification(station_id TEXT NOT NULL, position INTEGER NOT NULL,"
     " certification_id TEXT NOT NULL, PRIMARY KEY(station_id, position));"
     "CREATE TABLE site_person(id TEXT PRIMARY KEY, position INTEGER NOT NULL, name TEXT NOT NULL,"
     " phone TEXT NOT NULL, birth_date TEXT, minor INTEGER NOT NULL,"
     " sms_consent INTEGER NOT NULL, sms_consent_at INTEGER, manager_id TEXT,"
     " safety_contact INTEGER NOT NULL, hourly_rate_cents INTEGER NOT NULL);"
     "CREATE TABLE site_person_role(person_id TEXT NOT NULL, position INTEGER NOT NULL,"
     " station_id TEXT NOT NULL, PRIMARY KEY(person_id, position));"
     "CREATE TABLE site_person_certification(person_id TEXT NOT NULL, position INTEGER NOT NULL,"
     " certification_id TEXT NOT NULL, expires TEXT, PRIMARY KEY(person_id, position));"
     "CREATE TABLE site_availability(person_id TEXT NOT NULL, position INTEGER NOT NULL,"
     " weekday INTEGER NOT NULL, start_minute INTEGER NOT NULL, end_minute INTEGER NOT NULL,"
     " PRIMARY KEY(person_id, position));"
     "CREATE TABLE site_time_off(person_id TEXT NOT NULL, position INTEGER NOT NULL,"
     " start_utc INTEGER NOT NULL, start_local INTEGER NOT NULL, end_utc INTEGER NOT NULL,"
     " end_local INTEGER NOT NULL, PRIMARY KEY(person_id, position));"
     "CREATE TABLE site_shift(id TEXT PRIMARY KEY, position INTEGER NOT NULL,"
     " station_id TEXT NOT NULL, start_utc INTEGER NOT NULL, start_local INTEGER NOT NULL,"
     " end_utc INTEGER NOT NULL, end_local INTEGER NOT NULL, certification_id TEXT,"
     " assignee_id TEXT);"
     "CREATE INDEX site_shift_by_start ON site_shift(start_utc);"
     "CREATE INDEX site_shift_by_assignee ON site_shift(assignee_id, start_utc);"
     "CREATE TABLE site_schedule_version(id TEXT PRIMARY KEY, position INTEGER NOT NULL,"
     " published_at INTEGER NOT NULL);"
     "CREATE TABLE site_schedule_version_shift(version_id TEXT NOT NULL,"
     " position INTEGER NOT NULL, shift_id TEXT NOT NULL, PRIMARY KEY(version_id, position));"
     "CREATE TABLE site_punch(position INTEGER PRIMARY KEY, person_id TEXT NOT NULL,"
     " kind TEXT NOT NULL, at INTEGER NOT NULL);"
     "CREATE INDEX site_punch_by_person ON site_punch(person_id, at);"
     "CREATE TABLE site_school_day(day TEXT PRIMARY KEY, position INTEGER NOT NULL);"},
    // The SMS mailbox (sms/mailbox/, docs/sms-mailbox.md). Instants are Unix milliseconds (UTC).
    // Inbox rows are deduplicated by (gateway, provider_id); an outbox row's id is the idempotency
    // key handed to the gateway; delivery reports are kept (one per state) so a report that
    // arrives before the send is recorded is applied when it is.
    {4, "sms",
     "CREATE TABLE sms_inbox(id INTEGER PRIMARY KEY, gateway TEXT NOT NULL,"
     " provider_id TEXT NOT NULL, from_number TEXT NOT NULL, to_number TEXT NOT NULL, body TEXT,"
     " state TEXT NOT NULL CHECK(state IN ('new','handled','refused')), refusal TEXT,"
     " received_at INTEGER NOT NULL, stored_at INTEGER NOT NULL, handled_at INTEGER,"
     " UNIQUE(gateway, provider_id));"
     "CREATE INDEX sms_inbox_by_state ON sms_inbox(state, id);"
     "CREATE TABLE sms_outbox(seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,"
     " to_number TEXT NOT NULL, body TEXT NOT NULL, class TEXT NOT NULL,"
     " segments INTEGER NOT NULL, ref TEXT NOT NULL,"
     " state TEXT NOT NULL CHECK(state IN ('queued','sending','sent','delivered','undelivered',"
     "'failed','held','withdrawn')),"
     " attempts INTEGER NOT NULL, reconcile_attempts INTEGER NOT NULL,"
     " next_attempt_at INTEGER NOT NULL, expires_at INTEGER, gateway TEXT NOT NULL,"
     " provider_id TEXT NOT NULL, error_code TEXT NOT NULL, last_error TEXT NOT NULL,"
     " flag TEXT NOT NULL, hold_reason TEXT NOT NULL, created_at INTEGER NOT NULL,"
     " updated_at INTEGER NOT NULL, first_attempt_at INTEGER, sent_at INTEGER,"
     " final_at INTEGER);"
     "CREATE INDEX sms_outbox_due ON sms_outbox(state, next_attempt_at);"
     "CREATE INDEX sms_outbox_by_provider ON sms_outbox(gateway, provider_id);"
     "CREATE TABLE sms_delivery_report(id INTEGER PRIMARY KEY, gateway TEXT NOT NULL,"
     " provider_id TEXT NOT NULL, state TEXT NOT NULL, error_code TEXT NOT NULL,"
     " reported_at INTEGER NOT NULL, received_at INTEGER NOT NULL, applied INTEGER NOT NULL,"
     " UNIQUE(gateway, provider_id, state));"},
    // Station tags and hire dates of the site model (domain/site/station_tag.h, site_repository.h).
    {5, "site_station_tags",
     "CREATE TABLE site_station_tag(station_id TEXT NOT NULL, position INTEGER NOT NULL,"
     " tag TEXT NOT NULL, PRIMARY KEY(station_id, position));"
     "ALTER TABLE site_person ADD COLUMN hire_date TEXT;"},
    // The SMS conversation layer (sms/conversation/, docs/sms.md "Conversation"). Opt-out state is
    // keyed by phone number so it covers numbers not on the roster; sms_outreach records every
    // outgoing message's decision (queued, held until a time or a release, refused, withdrawn).
    // Instants are Unix milliseconds (UTC); local days are 'YYYY-MM-DD' in the site's time.
    {6, "sms_conversation",
     "CREATE TABLE sms_contact_state(phone TEXT PRIMARY KEY, opted_out INTEGER NOT NULL,"
     " opted_out_at INTEGER, opt_out_keyword TEXT NOT NULL, opt_out_confirmed INTEGER NOT NULL,"
     " last_inbound_at INTEGER, unknown_reply_day TEXT NOT NULL);"
     "CREATE TABLE sms_outreach(seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,"
     " phone TEXT NOT NULL, person_id TEXT NOT NULL, kind TEXT NOT NULL, urgent INTEGER NOT NULL,"
     " body TEXT NOT NULL, ref TEXT NOT NULL, in_reply_to INTEGER, sources TEXT NOT NULL,"
     " actor TEXT NOT NULL, not_after INTEGER, why_reply INTEGER NOT NULL,"
     " state TEXT NOT NULL CHECK(state IN ('queued','held','refused','withdrawn')),"
     " reason TEXT NOT NULL, hold_until INTEGER, counts_cap INTEGER NOT NULL,"
     " local_day TEXT NOT NULL, receipt_seq INTEGER, decisions INTEGER NOT NULL,"
     " created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);"
     "CREATE INDEX sms_outreach_by_phone ON sms_outreach(phone, local_day, state);"
     "CREATE INDEX sms_outreach_held ON sms_outreach(state, hold_until);"},
    // Signed cloud commands (sync/command/, docs/sync-protocol.md "Commands"): the replay guard
    // (every verified command id, decided once, never pruned, with the result it got), the
    // configuration overrides that config.set commands leave for the next start, and the
    // kill-switch state (domain/policy/kill_switch.h; no row means L0). Times are audit-entry
    // timestamps (UTC, YYYY-MM-DDTHH:MM:SS.mmmZ).
    {7, "sync_commands",
     "CREATE TABLE sync_command(id TEXT PRIMARY KEY, kind TEXT NOT NULL,"
     " outcome TEXT NOT NULL CHECK(outcome IN ('applied','refused')), code TEXT NOT NULL,"
     " decided_at TEXT NOT NULL, audit_seq INTEGER, result TEXT NOT NULL);"
     "CREATE TABLE config_override(key TEXT PRIMARY KEY, value TEXT NOT NULL,"
     " set_at TEXT NOT NULL, set_by TEXT NOT NULL, command_id TEXT NOT NULL);"
     "CREATE TABLE kill_switch(id INTEGER PRIMARY KEY CHECK(id=1),"
     " level INTEGER NOT NULL CHECK(level BETWEEN 0 AND 3), set_at TEXT NOT NULL,"
     " set_by TEXT NOT NULL, reason TEXT NOT NULL, automated INTEGER NOT NULL);"},
    // Safety reports (sms/conversation/safety_desk.h, docs/safety-alerts.md): one row per
    // incident, open until a person it was sent to acknowledges it; `recipients` is the
    // comma-separated E.164 numbers alerted. Instants are Unix milliseconds (UTC).
    {8, "safety",
     "CREATE TABLE safety_incident(id INTEGER PRIMARY KEY, opened_at INTEGER NOT NULL,"
     " inbox_id INTEGER NOT NULL, reporter TEXT NOT NULL, person_id TEXT NOT NULL,"
     " category TEXT NOT NULL, state TEXT NOT NULL CHECK(state IN ('open','acknowledged')),"
     " rounds INTEGER NOT NULL, next_alert_at INTEGER, recipients TEXT NOT NULL,"
     " acknowledged_by TEXT NOT NULL, acknowledged_at INTEGER);"
     "CREATE INDEX safety_incident_due ON safety_incident(state, next_alert_at);"
     "CREATE INDEX safety_incident_reporter ON safety_incident(reporter, state);"},
    // Call-outs (domain/callout/, docs/callouts.md): one row per shift someone cannot work, its
    // offers (one per person and call-out: nobody is offered the same call-out twice) and the
    // approvals a manager gives or refuses by text or on the panel. Instants are Unix
    // milliseconds (UTC). At most one open call-out per shift.
    {9, "callout",
     "CREATE TABLE callout(id INTEGER PRIMARY KEY, shift_id TEXT NOT NULL,"
     " station_id TEXT NOT NULL, absent_id TEXT NOT NULL, reporter_id TEXT NOT NULL,"
     " reporter_phone TEXT NOT NULL, origin TEXT NOT NULL, inbox_id INTEGER,"
     " opened_at INTEGER NOT NULL, shift_start INTEGER NOT NULL, shift_end INTEGER NOT NULL,"
     " state TEXT NOT NULL CHECK(state IN ('open','covered','withdrawn','expired')),"
     " waves INTEGER NOT NULL, next_wave_at INTEGER, escalate_at INTEGER,"
     " escalated_at INTEGER, covered_by TEXT NOT NULL, closed_at INTEGER);"
     "CREATE UNIQUE INDEX callout_open_shift ON callout(shift_id) WHERE state = 'open';"
     "CREATE INDEX callout_by_state ON callout(state);"
     "CREATE TABLE callout_offer(id INTEGER PRIMARY KEY, callout_id INTEGER NOT NULL,"
     " person_id TEXT NOT NULL, phone TEXT NOT NULL, code TEXT NOT NULL, wave INTEGER NOT NULL,"
     " rank INTEGER NOT NULL, state TEXT NOT NULL CHECK(state IN"
     " ('open','accepted','declined','awaiting_approval','closed','not_sent')),"
     " offered_at INTEGER NOT NULL, answered_at INTEGER, premium_minutes INTEGER NOT NULL,"
     " premium_cents INTEGER NOT NULL, UNIQUE(callout_id, person_id));"
     "CREATE INDEX callout_offer_by_person ON callout_offer(person_id, state);"
     "CREATE TABLE approval(id INTEGER PRIMARY KEY, kind TEXT NOT NULL,"
     " callout_id INTEGER NOT NULL, offer_id INTEGER, subject_id TEXT NOT NULL,"
     " approver_id TEXT NOT NULL, approver_phone TEXT NOT NULL, summary TEXT NOT NULL,"
     " requested_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, state TEXT NOT NULL CHECK("
     " state IN ('pending','approved','denied','expired','withdrawn')),"
     " decided_by TEXT NOT NULL, decided_at INTEGER, remark TEXT NOT NULL);"
     "CREATE INDEX approval_by_state ON approval(state, expires_at);"},
    // Punches from time-clock terminals (domain/terminal/punch_ledger.h, docs/terminals.md): one
    // row per (terminal, the terminal's own event id), so a retried request stores nothing twice.
    // Accepted punches are also appended to site_punch. Instants are Unix milliseconds (UTC).
    {10, "terminal_punches",
     "CREATE TABLE terminal_punch(terminal_id TEXT NOT NULL, event_id TEXT NOT NULL,"
     " person_id TEXT NOT NULL, kind TEXT NOT NULL, at INTEGER NOT NULL,"
     " received_at INTEGER NOT NULL, PRIMARY KEY(terminal_id, event_id));"
     "CREATE INDEX terminal_punch_by_person ON terminal_punch(person_id, at);"},
    // The seq of the signed receipt each approval was asked with (domain/callout/, docs/api.md):
    // the approvals API shows its rule evaluations as the evidence. NULL for older rows.
    {11, "approval_receipt", "ALTER TABLE approval ADD COLUMN receipt_seq INTEGER;"},
    // Trust budgets (domain/policy/trust_store.h, docs/policy-gate.md "Trust budget"): one row per
    // management function. `state` is the whole budget as canonical JSON (trust, graduation and
    // the evidence windows, instants in Unix milliseconds) and is what is loaded; graduation,
    // effective and trust_halves repeat it for people reading the database.
    {12, "trust_budget",
     "CREATE TABLE trust_budget(function TEXT PRIMARY KEY,"
     " graduation TEXT NOT NULL CHECK(graduation IN ('SHADOW','PROPOSE','AUTONOMOUS')),"
     " effective TEXT NOT NULL CHECK(effective IN ('SHADOW','PROPOSE','AUTONOMOUS')),"
     " trust_halves INTEGER NOT NULL CHECK(trust_halves BETWEEN 0 AND 200),"
     " updated_at INTEGER NOT NULL, state TEXT NOT NULL);"},
    // What every wave asks for each person with the station's role (domain/callout/
    // callout_store.h: outBetween, offersSince): indexed, so a wave does not scan the call-outs
    // and offers on record (bench_callout grew with them).
    {13, "callout_lookups",
     "CREATE INDEX callout_by_absent ON callout(absent_id, shift_start);"
     "CREATE INDEX callout_offer_by_person_time ON callout_offer(person_id, offered_at);"},
    // Breakers (domain/policy/breaker_board.h, docs/policy-breakers.md): one row per breaker.
    // `state_json` is the whole breaker as canonical JSON (state, probe progress, the samples and
    // signals inside their windows; instants in Unix milliseconds) and is what is loaded; state,
    // since and reason repeat it for people reading the database.
    {14, "breakers",
     "CREATE TABLE breaker(id TEXT PRIMARY KEY,"
     " state TEXT NOT NULL CHECK(state IN ('closed','open','half-open')),"
     " since INTEGER NOT NULL, reason TEXT NOT NULL, updated_at INTEGER NOT NULL,"
     " state_json TEXT NOT NULL);"},
    // Checklists (sms/conversation/checklist_desk.h, docs/checklists.md): every completion or
    // temperature reading (tenths of a degree F), and each overdue alert stage sent, once per
    // checklist, site local day (YYYY-MM-DD) and stage. Instants are Unix milliseconds (UTC).
    {15, "checklists",
     "CREATE TABLE checklist_entry(id INTEGER PRIMARY KEY, checklist_id TEXT NOT NULL,"
     " local_day TEXT NOT NULL, at INTEGER NOT NULL, by_phone TEXT NOT NULL,"
     " person_id TEXT NOT NULL, channel TEXT NOT NULL CHECK(channel IN ('sms','terminal')),"
     " temperature_tenths_f INTEGER, in_range INTEGER);"
     "CREATE INDEX checklist_entry_by_day ON checklist_entry(checklist_id, local_day);"
     "CREATE TABLE checklist_alert(checklist_id TEXT NOT NULL, local_day TEXT NOT NULL,"
     " stage TEXT NOT NULL CHECK(stage IN ('owner','manager')), sent_at INTEGER NOT NULL,"
     " PRIMARY KEY(checklist_id, local_day, stage));"},
    // Inbound texts parked while the kill switch froze writes (L2+), handled again when it lifts
    // (sms/conversation/parked_messages.h). parked_at: Unix milliseconds (UTC).
    {16, "sms_parked",
     "CREATE TABLE sms_parked(inbox_id INTEGER PRIMARY KEY, parked_at INTEGER NOT NULL);"},
    // HUMAN_ONLY packets for a person (domain/policy/packet_book.h) and the actions people asked
    // the box for (domain/policy/action_requests.h; RISK-08 counts the adverse ones per subject).
    // Instants are Unix milliseconds (UTC); evidence is canonical JSON.
    {17, "human_packets",
     "CREATE TABLE human_packet(id INTEGER PRIMARY KEY, kind TEXT NOT NULL,"
     " subject TEXT NOT NULL, asked_by TEXT NOT NULL, opened_at INTEGER NOT NULL,"
     " rule TEXT NOT NULL, pattern TEXT NOT NULL, summary TEXT NOT NULL, evidence TEXT NOT NULL,"
     " state TEXT NOT NULL CHECK(state IN ('open','closed')), closed_by TEXT NOT NULL,"
     " closed_at INTEGER, note TEXT NOT NULL);"
     "CREATE INDEX human_packet_by_state ON human_packet(state, id);"
     "CREATE TABLE action_request(id INTEGER PRIMARY KEY, kind TEXT NOT NULL,"
     " subject TEXT NOT NULL, asked_by TEXT NOT NULL, asked_at INTEGER NOT NULL,"
     " adverse INTEGER NOT NULL, reason TEXT NOT NULL, outcome TEXT NOT NULL,"
     " packet_id INTEGER REFERENCES human_packet(id));"
     "CREATE INDEX action_request_by_subject ON action_request(subject, asked_at);"},
    // Shift offers paused after a stop-like reply (sms/conversation/offers_pause.h; seed 001
    // EC-RISK-005). paused_at: Unix milliseconds (UTC); words: the stop-like words, folded.
    {18, "sms_offers_paused",
     "CREATE TABLE sms_offers_paused(phone TEXT PRIMARY KEY, paused_at INTEGER NOT NULL,"
     " words TEXT NOT NULL);"},
    // Covers the box gave on its own, each judged once (domain/callout/cover_verifier.h): pending,
    // then verified or mismatch with the reason and the evidence. Instants: Unix milliseconds.
    {19, "cover_check",
     "CREATE TABLE cover_check(callout_id INTEGER PRIMARY KEY, kind TEXT NOT NULL,"
     " shift_id TEXT NOT NULL, person_id TEXT NOT NULL, assigned_at INTEGER NOT NULL,"
     " shift_start INTEGER NOT NULL, shift_end INTEGER NOT NULL, outcome TEXT NOT NULL"
     " CHECK(outcome IN ('pending','verified','mismatch')), judged_at INTEGER,"
     " reason TEXT NOT NULL, evidence TEXT NOT NULL);"
     "CREATE INDEX cover_check_by_outcome ON cover_check(outcome);"},
    // Call-outs decided in shadow (domain/callout/shadow_book.h; docs/callouts.md "shadow"):
    // whom the box would have offered the shift (eligible, canonical JSON array of person ids in
    // rank order) and whom it ruled out and why (ruled_out, canonical JSON), then the verdict on
    // it: by the time clock or the schedule at the shift's start plus the grace, or by a manager.
    // Instants are Unix milliseconds (UTC).
    {20, "callout_shadow",
     "CREATE TABLE callout_shadow(callout_id INTEGER PRIMARY KEY, shift_id TEXT NOT NULL,"
     " absent_id TEXT NOT NULL, decided_at INTEGER NOT NULL, shift_start INTEGER NOT NULL,"
     " receipt_seq INTEGER NOT NULL, eligible TEXT NOT NULL, ruled_out TEXT NOT NULL,"
     " verdict TEXT CHECK(verdict IN ('agreed','disagreed','unknown')),"
     " worker TEXT NOT NULL, judged_by TEXT NOT NULL, judged_at INTEGER);"
     "CREATE INDEX callout_shadow_awaiting ON callout_shadow(verdict, shift_start);"},
    // The school calendar's hours of a school day (domain/site/site_model.h SchoolHours): local
    // minutes after midnight, both NULL when the calendar does not give them (every site stored
    // before this migration).
    {21, "site_school_hours",
     "ALTER TABLE site_info ADD COLUMN school_start_minute INTEGER;"
     "ALTER TABLE site_info ADD COLUMN school_end_minute INTEGER;"},
    // The employer's workweek and workday (SiteInfo::workweekStart, workdayStartMinute): Sunday
    // and midnight for every site stored before.
    {22, "site_workweek",
     "ALTER TABLE site_info ADD COLUMN workweek_start INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE site_info ADD COLUMN workday_start_minute INTEGER NOT NULL DEFAULT 0;"},
    // The manager's panel accounts (daemon/panel/, docs/panel-accounts.md): accounts (argon2id
    // hashes; the per-account sign-in throttle), sessions stored by the SHA-256 of their id, and
    // the one active sign-in code per person (keyed BLAKE2b of the code). Instants are Unix
    // milliseconds (UTC).
    {23, "panel_accounts",
     "CREATE TABLE panel_account(person_id TEXT PRIMARY KEY, password_hash TEXT NOT NULL,"
     " state TEXT NOT NULL CHECK(state IN ('active','disabled')), created_at INTEGER NOT NULL,"
     " updated_at INTEGER NOT NULL, password_set_at INTEGER NOT NULL,"
     " failed_count INTEGER NOT NULL, next_try_at INTEGER NOT NULL);"
     "CREATE TABLE panel_session(id_hash BLOB PRIMARY KEY, person_id TEXT NOT NULL,"
     " method TEXT NOT NULL CHECK(method IN ('password','code')), created_at INTEGER NOT NULL,"
     " last_seen_at INTEGER NOT NULL);"
     "CREATE INDEX panel_session_by_person ON panel_session(person_id);"
     "CREATE TABLE panel_sign_in_code(person_id TEXT PRIMARY KEY, code_hash BLOB NOT NULL,"
     " created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, attempts INTEGER NOT NULL);"},
    // Which signed receipts belong to which call-out (domain/callout/desk_turn.h signReceipt), so
    // the panel lists a call-out's receipts without reading the audit log through.
    {24, "callout_receipts",
     "CREATE TABLE callout_receipt(callout_id INTEGER NOT NULL, seq INTEGER NOT NULL,"
     " PRIMARY KEY(callout_id, seq));"},
    // POS sales (domain/pos/sales_book.h, docs/pos.md): one row per (source, the POS's order id),
    // its latest version only. interval_start is the UTC start of the site-local 15-minute
    // interval of the close time (Unix seconds); a return's refund counts in return_interval /
    // return_center (its sale's when the sale is stored). Amounts are integer cents; other
    // instants Unix milliseconds. pos_source: each source's durable cursor and last contact.
    {25, "pos_sales",
     "CREATE TABLE pos_order(source TEXT NOT NULL, order_id TEXT NOT NULL,"
     " version INTEGER NOT NULL, state TEXT NOT NULL CHECK(state IN"
     " ('completed','canceled','open')), revenue_center TEXT NOT NULL,"
     " closed_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, interval_start INTEGER NOT NULL,"
     " net_cents INTEGER NOT NULL, transactions INTEGER NOT NULL, covers INTEGER NOT NULL,"
     " return_of TEXT NOT NULL, returned_cents INTEGER NOT NULL, return_center TEXT NOT NULL,"
     " return_interval INTEGER NOT NULL, received_at INTEGER NOT NULL,"
     " PRIMARY KEY(source, order_id));"
     "CREATE INDEX pos_order_by_interval ON pos_order(interval_start);"
     "CREATE INDEX pos_order_by_return_interval ON pos_order(return_interval);"
     "CREATE INDEX pos_order_by_return_of ON pos_order(source, return_of);"
     "CREATE TABLE pos_source(source TEXT PRIMARY KEY, cursor TEXT,"
     " last_contact_at INTEGER NOT NULL);"},
    // The manager's schedule drafts (domain/week/draft_store.h, docs/decisions/0032): one draft per
    // workweek ('YYYY-MM-DD', its first local day) with a version every edit must name; its shifts
    // (columns as site_shift); the live shifts of the week as they stood when the draft was
    // opened or last published (the base a publication merges against); the edits, the
    // overrides of denied findings with their reasons, and the saved week templates (a shift as a
    // day of the week 0..6, a local start minute and a length). Shift times are Unix seconds and
    // local seconds as in site_shift; the other instants are Unix milliseconds (UTC).
    {26, "schedule_drafts",
     "CREATE TABLE schedule_draft(week TEXT PRIMARY KEY, version INTEGER NOT NULL,"
     " next_shift INTEGER NOT NULL, opened_at INTEGER NOT NULL, updated_by TEXT NOT NULL,"
     " updated_at INTEGER NOT NULL, published_version TEXT, published_at INTEGER);"
     "CREATE TABLE schedule_draft_shift(week TEXT NOT NULL, id TEXT NOT NULL,"
     " station_id TEXT NOT NULL, start_utc INTEGER NOT NULL, start_local INTEGER NOT NULL,"
     " end_utc INTEGER NOT NULL, end_local INTEGER NOT NULL, certification_id TEXT,"
     " assignee_id TEXT, PRIMARY KEY(week, id));"
     "CREATE TABLE schedule_draft_base(week TEXT NOT NULL, id TEXT NOT NULL,"
     " station_id TEXT NOT NULL, start_utc INTEGER NOT NULL, start_local INTEGER NOT NULL,"
     " end_utc INTEGER NOT NULL, end_local INTEGER NOT NULL, certification_id TEXT,"
     " assignee_id TEXT, PRIMARY KEY(week, id));"
     "CREATE TABLE schedule_draft_edit(week TEXT NOT NULL, version INTEGER NOT NULL,"
     " kind TEXT NOT NULL, actor TEXT NOT NULL, at INTEGER NOT NULL, detail TEXT NOT NULL,"
     " PRIMARY KEY(week, version));"
     "CREATE TABLE schedule_draft_override(week TEXT NOT NULL, rule_id TEXT NOT NULL,"
     " shift_id TEXT NOT NULL, person_id TEXT NOT NULL, reason TEXT NOT NULL,"
     " actor TEXT NOT NULL, at INTEGER NOT NULL, version INTEGER NOT NULL,"
     " PRIMARY KEY(week, rule_id, shift_id, person_id));"
     "CREATE TABLE schedule_template(name TEXT PRIMARY KEY, created_by TEXT NOT NULL,"
     " created_at INTEGER NOT NULL);"
     "CREATE TABLE schedule_template_shift(name TEXT NOT NULL, position INTEGER NOT NULL,"
     " station_id TEXT NOT NULL, day INTEGER NOT NULL, start_minute INTEGER NOT NULL,"
     " minutes INTEGER NOT NULL, certification_id TEXT, assignee_id TEXT,"
     " PRIMARY KEY(name, position));"},
    // Requests by text (domain/requests/, docs/requests.md): time off (local dates from..to,
    // 'YYYY-MM-DD', inclusive, and a part of the day) or an availability change (weekdays as
    // c_encoding digits "06", a part, cannot/only), the approver named at receipt, and the
    // decision. Never a reason. Instants are Unix milliseconds (UTC). Numbered 27: 25 and 26 are
    // other wings' (the runner only needs increasing versions).
    {27, "staff_requests",
     "CREATE TABLE staff_request(id INTEGER PRIMARY KEY, person_id TEXT NOT NULL,"
     " kind TEXT NOT NULL CHECK(kind IN ('time_off','availability')),"
     " state TEXT NOT NULL CHECK(state IN ('pending','approved','denied','withdrawn')),"
     " from_date TEXT NOT NULL, to_date TEXT NOT NULL, part TEXT NOT NULL,"
     " weekdays TEXT NOT NULL, availability_change TEXT NOT NULL, approver_id TEXT NOT NULL,"
     " inbox_id INTEGER, created_at INTEGER NOT NULL, decided_by TEXT NOT NULL,"
     " decided_via TEXT NOT NULL, decided_at INTEGER, remark TEXT NOT NULL);"
     "CREATE INDEX staff_request_by_state ON staff_request(state, id);"},
    // The forecast's inputs and intraday proposals (domain/forecast/, docs/forecast.md, decision
    // 0036): the days the manager marks (day 'YYYY-MM-DD' local; like_weekday 0 = Monday .. 6,
    // -1 none; the multiplier in thousandths) and the intraday proposals to add a person or let
    // one go early, with their evidence (actual and forecast over the window, in the driver's
    // unit: cents or counts) and, for a cut, the Fair Workweek premium in cents. The window is in
    // site-local seconds, cut_to in Unix seconds, the other instants Unix milliseconds (UTC).
    // Numbered 30: 28 and 29 are other wings'.
    {30, "forecast_intraday",
     "CREATE TABLE forecast_special_day(day TEXT PRIMARY KEY, closed INTEGER NOT NULL,"
     " like_weekday INTEGER NOT NULL, multiplier_milli INTEGER NOT NULL, note TEXT NOT NULL,"
     " marked_by TEXT NOT NULL, marked_at INTEGER NOT NULL);"
     "CREATE TABLE intraday_proposal(id INTEGER PRIMARY KEY, day TEXT NOT NULL,"
     " station TEXT NOT NULL, kind TEXT NOT NULL CHECK(kind IN ('add','cut')),"
     " state TEXT NOT NULL CHECK(state IN ('pending','approved','denied','expired')),"
     " measure TEXT NOT NULL, window_start INTEGER NOT NULL, window_end INTEGER NOT NULL,"
     " actual INTEGER NOT NULL, forecast INTEGER NOT NULL, shift_id TEXT NOT NULL,"
     " person_id TEXT NOT NULL, cut_to INTEGER, premium_cents INTEGER NOT NULL,"
     " premium_minutes INTEGER NOT NULL, summary TEXT NOT NULL, requested_at INTEGER NOT NULL,"
     " decided_by TEXT NOT NULL, decided_at INTEGER, remark TEXT NOT NULL);"
     "CREATE INDEX intraday_proposal_by_day ON intraday_proposal(day, station);"},
    // 31: a cut remembers the end of the shift it was quoted against (Unix seconds), so an
    // approval after the schedule moved on is refused (decision 0039).
    {31, "intraday_cut_scheduled_end",
     "ALTER TABLE intraday_proposal ADD COLUMN scheduled_end INTEGER;"},
};

constexpr std::string_view kCreateTable =
    "CREATE TABLE IF NOT EXISTS schema_migrations(version INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL, applied_at TEXT NOT NULL)";

Status validateList(std::span<const Migration> migrations) {
  int previous = 0;
  for (const Migration& m : migrations) {
    if (m.version <= previous) {
      return makeError("schema migration list is malformed: version " + std::to_string(m.version) +
                       " is not positive and increasing");
    }
    if (m.name.empty()) {
      return makeError("schema migration list is malformed: version " + std::to_string(m.version) +
                       " has no name");
    }
    previous = m.version;
  }
  return Status::success();
}

Result<bool> hasMigrationsTable(Database& db) {
  auto stmt = db.prepare(
      "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='schema_migrations'");
  if (!stmt) return stmt.error();
  auto row = stmt->step();
  if (!row) return row.error();
  return *row && stmt->columnInt64(0) > 0;
}

Result<std::map<int, std::string>> recordedMigrations(Database& db) {
  std::map<int, std::string> recorded;
  auto exists = hasMigrationsTable(db);
  if (!exists) return exists.error();
  if (!*exists) return recorded;
  auto stmt = db.prepare("SELECT version, name FROM schema_migrations ORDER BY version");
  if (!stmt) return stmt.error();
  for (;;) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) break;
    recorded.emplace(static_cast<int>(stmt->columnInt64(0)), stmt->columnText(1));
  }
  return recorded;
}

Status applyOne(Database& db, const Migration& m) {
  const std::string label =
      "schema migration " + std::to_string(m.version) + " (" + std::string(m.name) + ")";
  auto tx = Transaction::begin(db);
  if (!tx) return makeError(label + " failed: " + tx.message());

  // Another process may have applied it between our check and our write lock.
  auto check = db.prepare("SELECT name FROM schema_migrations WHERE version = ?");
  if (!check) return makeError(label + " failed: " + check.message());
  check->bind(1, std::int64_t{m.version});
  auto row = check->step();
  if (!row) return makeError(label + " failed: " + row.message());
  if (*row) {
    if (check->columnText(0) != m.name) {
      return makeError("database schema migration " + std::to_string(m.version) + " is named '" +
                       check->columnText(0) + "' but this atoms-edge calls it '" +
                       std::string(m.name) + "'");
    }
    return Status::success();  // the transaction rolls back; nothing was written
  }

  if (auto s = db.exec(m.sql); !s) return makeError(label + " failed: " + s.message());
  auto record = db.prepare(
      "INSERT INTO schema_migrations(version, name, applied_at)"
      " VALUES(?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))");
  if (!record) return makeError(label + " failed: " + record.message());
  record->bind(1, std::int64_t{m.version}).bind(2, m.name);
  if (auto done = record->step(); !done) return makeError(label + " failed: " + done.message());
  if (auto s = tx->commit(); !s) return makeError(label + " failed: " + s.message());
  return Status::success();
}

}  // namespace

Result<std::vector<int>> pendingMigrations(Database& db, std::span<const Migration> migrations) {
  if (auto s = validateList(migrations); !s) return s.error();
  auto recorded = recordedMigrations(db);
  if (!recorded) return recorded.error();

  const int known = migrations.empty() ? 0 : migrations.back().version;
  if (!recorded->empty() && recorded->rbegin()->first > known) {
    return makeError("database schema version " + std::to_string(recorded->rbegin()->first) +
                     " is newer than this atoms-edge (" + std::to_string(known) + ")");
  }
  std::map<int, std::string_view> byVersion;
  for (const Migration& m : migrations) byVersion.emplace(m.version, m.name);
  for (const auto& [version, name] : *recorded) {
    auto it = byVersion.find(version);
    if (it == byVersion.end()) {
      return makeError("database records schema migration " + std::to_string(version) + " (" +
                       name + ") which this atoms-edge does not know");
    }
    if (it->second != name) {
      return makeError("database schema migration " + std::to_string(version) + " is named '" +
                       name + "' but this atoms-edge calls it '" + std::string(it->second) + "'");
    }
  }

  std::vector<int> pending;
  const int highestRecorded = recorded->empty() ? 0 : recorded->rbegin()->first;
  for (const Migration& m : migrations) {
    if (recorded->count(m.version) != 0) continue;
    // A gap below an applied version means the list changed after shipping.
    if (m.version < highestRecorded) {
      return makeError("schema migration " + std::to_string(m.version) + " (" +
                       std::string(m.name) + ") is missing from the database but version " +
                       std::to_string(highestRecorded) + " is applied");
    }
    pending.push_back(m.version);
  }
  return pending;
}

Status migrate(Database& db, std::span<const Migration> migrations) {
  auto pending = pendingMigrations(db, migrations);
  if (!pending) return pending.error();
  if (pending->empty()) return Status::success();
  if (db.mode() == OpenMode::ReadOnly) {
    return makeError("database " + db.path() + " needs schema migrations but is open read-only");
  }
  if (auto s = db.exec(kCreateTable); !s) return s;
  for (const Migration& m : migrations) {
    if (std::find(pending->begin(), pending->end(), m.version) == pending->end()) continue;
    Status applied = applyOne(db, m);
    // Statements kept for the old schema would only be recompiled, or fail, at their next step.
    db.clearStatementCache();
    if (!applied) return applied;
  }
  return Status::success();
}

std::span<const Migration> storeMigrations() { return kStoreMigrations; }

}  // namespace atoms
