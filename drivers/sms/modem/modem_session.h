// ModemSession: the modem on its serial port, as the modem worker (modem_gateway.h) holds it:
// - open(): opens the port and runs the init sequence (docs/sms-modem.md, "What the driver says to
//   the modem"): AT (three tries), ATE0, AT+CMEE=1, the SIM PIN when the SIM asks (a PIN the SIM
//   refused is never sent again), PDU or text mode, storage, acknowledged or stored delivery, the
//   first AT+CNMI the modem accepts, its make and model, the signal. initialize() runs it again on
//   the open port (a modem that rebooted).
// - at(): one AT command with the watchdog's accounting: no answer, or lines without a final
//   result (garbage), is a failure, and maxConsecutiveFailures of them ask for a reset (outside the
//   init sequence, which fails by itself); an I/O error asks for one at once; an echo of the
//   command or a boot URC (RDY, +CFUN: 1) asks for a re-init. Any answer counts as life.
// - reset() closes the port and schedules the reopen with the backoff (reconnect_backoff.h);
//   keepaliveIfDue() probes an idle modem (AT+CSQ, which reads the signal), at once (at most once a
//   second) after garbage.
// - the unsolicited lines of the open session that are the inbound side's (new messages, status
//   reports) wait in takeEvent(); closing the port drops them (a new session reads storage again).
// - the message storage in use (AT+CPMS) and the storages the modem named, and whether direct
//   deliveries are acknowledged (AT+CSMS service 1).
// Everything it learns goes to the HealthBoard (state, errors, counters, signal, storage).
//
// Threading: the worker's thread only. Errors: in the HealthBoard (lastError), as one line.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/sms/modem/at_channel.h"
#include "drivers/sms/modem/modem_config.h"
#include "drivers/sms/modem/modem_health.h"
#include "drivers/sms/modem/reconnect_backoff.h"
#include "drivers/sms/modem/serial_port.h"

namespace atoms::drivers::modem {

class ModemSession {
 public:
  using Steady = std::chrono::steady_clock;

  // `config` and `health` must outlive the session. `random`: the backoff's jitter.
  ModemSession(const ModemConfig& config, HealthBoard& health, UnitRandom random);
  ModemSession(const ModemSession&) = delete;
  ModemSession& operator=(const ModemSession&) = delete;

  bool isOpen() const { return channel_ != nullptr; }
  bool pduMode() const { return config_.mode == ModemConfig::Mode::kPdu; }

  // Opens the port and initialises the modem; false (the error in the health, the port closed
  // again) when either fails. On success the backoff starts again from its initial wait.
  bool open();
  // The init sequence on the open port; false on failure (the caller resets).
  bool initialize();
  // After a successful init: ready (health), the next keepalive one interval away.
  void markReady();
  // After a failure: closes the port, counts a reset and schedules the reopen.
  void reset();
  // Closes the port (the worker stops); its unsolicited lines are dropped.
  void close();
  // The reopen waits for the backoff (health: backoff).
  void scheduleReconnect();
  Steady::time_point reconnectAt() const { return reconnectAt_; }

  bool needsReset() const { return needsReset_; }
  void requestReset() { needsReset_ = true; }
  bool needsReinit() const { return needsReinit_; }
  void requestReinit() { needsReinit_ = true; }
  void clearReinit() { needsReinit_ = false; }

  // One command with the watchdog's accounting (above); `shown` replaces the command in errors (the
  // SIM PIN). While a reset is pending: an I/O error, nothing sent.
  AtResponse at(const std::string& command, std::chrono::milliseconds timeout,
                std::string_view shown = {});
  // AT+CMGS with its payload (promptTimeout, then sendTimeout), accounted as "AT+CMGS".
  AtResponse submit(const std::string& command, const std::string& payload);
  // No answer, or an answer that makes no sense (`why`). When it is the failure that asks for a
  // reset, lastError (and, at the reset, lastResetReason) names the first failure of the run: the
  // command that hung, not the poll that found it still silent.
  void failure(const std::string& why);
  // Waits up to `timeout` for unsolicited lines; true when `wakeFd` woke it. A port error asks for
  // a reset.
  bool pump(std::chrono::milliseconds timeout, int wakeFd);

  // The next unsolicited line for the inbound side, if any.
  std::optional<UnsolicitedLine> takeEvent();
  bool hasEvents() const { return !events_.empty(); }

  void keepaliveIfDue();
  Steady::time_point keepaliveDue() const { return keepaliveDue_; }

  // Makes `storage` the one AT+CMGR/CMGL/CMGD work on; false when the modem refused it.
  bool selectStorage(const std::string& storage);
  // AT+CPMS?: the storage in use and how full it is.
  void readStorageStatus();
  const std::string& currentStorage() const { return currentStorage_; }
  const std::set<std::string>& storages() const { return storages_; }
  void addStorage(const std::string& storage) { storages_.insert(storage); }
  // AT+CSMS service: 1 when direct deliveries are acknowledged with AT+CNMA.
  int service() const { return service_; }

 private:
  void account(const std::string& shown, const AtResponse& r);
  bool initializeSteps();
  template <class Fail>
  bool unlockSim(const Fail& fail);
  std::vector<std::string> cnmiCandidates() const;
  void probeSignal();
  void onUnsolicited(UnsolicitedLine line);

  const ModemConfig& config_;
  HealthBoard& health_;
  ReconnectBackoff backoff_;

  std::unique_ptr<SerialPort> port_;
  std::unique_ptr<AtChannel> channel_;
  std::deque<UnsolicitedLine> events_;
  bool needsReset_ = false;
  bool needsReinit_ = false;
  bool initializing_ = false;
  bool pinRefused_ = false;
  int service_ = 0;
  std::string currentStorage_;
  std::set<std::string> storages_;
  std::string firstFailure_;  // the first failure of the current run: the command that hung
  std::string resetReason_;   // why the pending reset was asked for, naming that command

  Steady::time_point reconnectAt_{};
  Steady::time_point keepaliveDue_{};
  Steady::time_point lastProbe_{};
};

}  // namespace atoms::drivers::modem
