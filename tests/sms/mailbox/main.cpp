#define BOOST_TEST_MODULE sms_mailbox
#include <boost/test/unit_test.hpp>
