#define BOOST_TEST_MODULE week
#include <boost/test/unit_test.hpp>
