#define BOOST_TEST_MODULE labor
#include <boost/test/unit_test.hpp>
