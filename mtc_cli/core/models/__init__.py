"""Cost functions and optimizers: the models whose order is selected."""
