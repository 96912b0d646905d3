#define BOOST_TEST_MODULE http_driver
#include <boost/test/unit_test.hpp>
