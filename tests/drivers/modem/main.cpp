#define BOOST_TEST_MODULE sms_modem
#include <boost/test/unit_test.hpp>
