#define BOOST_TEST_MODULE sms_twilio
#include <boost/test/unit_test.hpp>
