-- comment
SELECT /* block /* nested */ */ 1; -- trailing
