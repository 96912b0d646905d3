#define BOOST_TEST_MODULE sms_text
#include <boost/test/unit_test.hpp>
