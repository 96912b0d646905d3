// SimulatedModem: a GSM modem played by a thread on the master side of a pseudo-terminal
// (openpty), so ModemGateway talks to it through a real tty with termios, exactly as to a USB
// modem. It answers the AT commands the driver uses (27.005/27.007 subset), decodes every PDU sent
// with AT+CMGS (so tests assert what went out), and lets a test inject what a network and a
// misbehaving modem produce: SMS-DELIVER PDUs (direct +CMT or stored +CMTI, per the AT+CNMI the
// driver set), status reports, garbage, silence, and a reboot (settings back to factory:
// echo on, no message routing).
//
// Thread-safety: every public function may be called from the test thread while the modem thread
// runs. waitFor() waits on a condition with a deadline (no sleeping). Test code: exceptions on
// setup failures.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "drivers/sms/modem/pdu.h"

namespace atoms::drivers::modem::testing {

class SimulatedModem {
 public:
  struct Sent {
    std::string command;           // "AT+CMGS=23" or "AT+CMGS=\"+49...\""
    std::string payload;           // the PDU hex or the text
    std::optional<SubmitPdu> pdu;  // decoded (PDU mode)
    int reference = 0;             // the TP-MR the modem answered
  };
  struct Stored {
    int status = 0;   // 0 unread, 1 read (PDU mode stat)
    std::string pdu;  // hex with SMSC field (PDU mode)
    int tpduLength = 0;
    std::string textHeader;  // text mode: "\"+49...\",,\"24/01/02,10:11:12+04\""
    std::string text;
  };

  SimulatedModem();
  ~SimulatedModem();
  SimulatedModem(const SimulatedModem&) = delete;
  SimulatedModem& operator=(const SimulatedModem&) = delete;

  // The tty the driver opens.
  const std::string& devicePath() const { return slavePath_; }

  // --- behaviour --------------------------------------------------------------------------------
  // Reads and drops everything, answers nothing (a hung modem).
  void setSilent(bool silent);
  // Answers every command with junk lines and no final result (wrong baud rate, a confused modem).
  void setGarbageAnswers(bool garbage);
  // Refuses the next `count` AT+CMGS with "+CMS ERROR: <code>".
  void failNextSends(int count, int cmsCode);
  // Answers AT+CMGS=... with the prompt only after this many sends succeeded, then goes silent
  // for the payload: the driver cannot know whether it was sent.
  void swallowPayloadAfter(int sends);
  // Refuses AT+CNMI with <ds> = 2 (modems that cannot store status reports).
  void setRejectStoredReports(bool reject);
  // Emits a status report (status `tpStatus`) for each SMS-SUBMIT that asks for one, right
  // after answering it.
  void setAutoReports(bool on, std::uint8_t tpStatus = 0x00);
  // The SIM asks for this PIN (AT+CPIN? -> "SIM PIN") until AT+CPIN="<pin>" gives it.
  void requirePin(const std::string& pin);
  // Factory state: echo on, text routing off (CNMI 0), CSMS 0, PDU mode; storage survives
  // (it is the SIM). Emits "RDY" like many modems do.
  void reboot(bool announce = true);

  // --- network side
  // ------------------------------------------------------------------------------- Delivers an
  // SMS-DELIVER as the current AT+CNMI says: +CMT (mt=2), stored + +CMTI (mt=1), or stored silently
  // (mt=0). Text mode: the text of the user data.
  void injectDeliver(const DeliverPdu& pdu);
  void injectStatusReport(const StatusReportPdu& report);
  // Raw bytes on the line, as they are.
  void injectRaw(const std::string& bytes);
  // Puts a message into storage without telling anyone (arrived while the modem was unrouted).
  int storeDeliver(const DeliverPdu& pdu);
  // Puts raw PDU hex into storage (a corrupted SIM entry) and announces it with +CMTI.
  int storeRaw(const std::string& pduHex, int tpduLength);

  // --- observation
  // --------------------------------------------------------------------------------
  std::vector<Sent> sent() const;
  std::vector<std::string> commands() const;  // every command line received, in order
  std::map<int, Stored> storage() const;
  int acks() const;          // AT+CNMA (positive)
  int negativeAcks() const;  // AT+CNMA=2
  int deletes() const;       // AT+CMGD
  int commandCount(const std::string& prefix) const;
  // Waits until predicate() holds (checked again after every change of the modem's state; it may
  // call the accessors above) or the deadline passes; returns whether it held.
  bool waitFor(const std::function<bool()>& predicate, std::chrono::milliseconds timeout) const;

 private:
  void run();
  void onBytes(const std::string& bytes);
  void onLine(const std::string& line);
  void onPayload(const std::string& payload);
  std::string answer(const std::string& command);
  void writeLocked(const std::string& bytes);
  void emitLocked(const std::string& text);  // "\r\n" + text + "\r\n"
  void deliverLocked(const DeliverPdu& pdu);
  void reportLocked(const StatusReportPdu& report);
  int storeLocked(Stored entry);
  std::string storedLineLocked(int index, const Stored& s, bool list);
  void changedLocked();

  int master_ = -1;
  int slaveKeep_ = -1;  // keeps the pty alive while the driver closes and reopens it
  int wake_ = -1;
  std::string slavePath_;
  std::thread thread_;

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::uint64_t generation_ = 0;  // bumped on every change, for waitFor()
  bool stop_ = false;
  std::string buffer_;
  bool inPayload_ = false;
  std::string payloadCommand_;
  // Modem state.
  bool echo_ = true;
  int cmgf_ = 0;
  int cnmiMt_ = 0, cnmiDs_ = 0;
  int csms_ = 0;
  int nextReference_ = 1;
  std::map<int, Stored> storage_;
  // Behaviour.
  bool silent_ = false;
  bool garbage_ = false;
  int failSends_ = 0, failCode_ = 500;
  int swallowAfter_ = -1;
  bool rejectStoredReports_ = false;
  bool autoReports_ = false;
  std::string pin_;  // "" = unlocked
  std::uint8_t autoStatus_ = 0;
  // Observation.
  std::vector<Sent> sent_;
  std::vector<std::string> commands_;
  int acks_ = 0, nacks_ = 0, deletes_ = 0;
};

}  // namespace atoms::drivers::modem::testing
