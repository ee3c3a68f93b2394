/** The roles user operations name their parties in (lib/ports/userOperations.ts UserOperationParty). */
export const USER_OPERATION_ROLES = ['sender', 'bundler', 'paymaster', 'factory'] as const;
export type UserOperationRole = (typeof USER_OPERATION_ROLES)[number];
