#define BOOST_TEST_MODULE sms_encoding
#include <boost/test/unit_test.hpp>
