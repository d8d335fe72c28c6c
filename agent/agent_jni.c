/* JNI helpers the agent's threads share. */
#include "agent/agent.h"

bool agent_jni_cleared(JNIEnv *env)
{
	if (!(*env)->ExceptionCheck(env))
		return false;
	(*env)->ExceptionClear(env);
	return true;
}
