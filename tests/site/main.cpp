#define BOOST_TEST_MODULE site
#include <boost/test/unit_test.hpp>
