import { UserInputError } from "@/lib/auth/users.ts";
import { BadRequestError } from "../_lib/handle.ts";

/** A refused user change (duplicate email, last admin) as a 400 naming the field. */
export async function userInput<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof UserInputError) {
      throw new BadRequestError(e.message, [{ path: e.field, message: e.message }]);
    }
    throw e;
  }
}
