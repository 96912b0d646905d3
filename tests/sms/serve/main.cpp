#define BOOST_TEST_MODULE sms_serve
#include <boost/test/unit_test.hpp>
