#define BOOST_TEST_MODULE sms_conversation
#include <boost/test/unit_test.hpp>
