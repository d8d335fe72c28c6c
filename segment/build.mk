# The segment publisher goes into libgctop.a too, so unit tests can publish
# crafted segments through the same code the agent uses.
LIB_SRC += segment/publish.c
$(LIB): $(BUILD)/obj/segment/publish.o
