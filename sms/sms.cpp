// Anchor of the atoms_sms library; the code lives in text/, outreach/ and mailbox/.
namespace atoms::sms {}
