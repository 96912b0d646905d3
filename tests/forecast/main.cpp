#define BOOST_TEST_MODULE forecast
#include <boost/test/unit_test.hpp>
