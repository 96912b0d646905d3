#define BOOST_TEST_MODULE terminal_driver
#include <boost/test/unit_test.hpp>
