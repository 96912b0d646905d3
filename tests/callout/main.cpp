#define BOOST_TEST_MODULE callout
#include <boost/test/unit_test.hpp>
